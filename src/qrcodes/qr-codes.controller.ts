import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AccountId } from '../common/auth/account-id';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { ResourceIdPipe } from '../common/validation/resource-id.pipe';
import { CreateQrCodeDto } from './dto/create-qr-code.dto';
import { ListQrCodesQuery } from './dto/list-qr-codes.query';
import { MessageView, QrCodeCreatedView, QrCodeGetView, QrCodeListView } from './dto/qr-code.views';
import { UpdateQrCodeDto } from './dto/update-qr-code.dto';
import { QrCodesService } from './qr-codes.service';

export const qrCodeId = new ResourceIdPipe('QR code');

@ApiTags('qrcodes')
@ApiSecurity('api-key')
@Controller('api/v1/qrcodes')
export class QrCodesController {
  constructor(private readonly qrCodes: QrCodesService) {}

  @Post()
  @ApiOperation({ summary: 'Create a QR code' })
  @ApiCreatedResponse({ type: QrCodeCreatedView })
  create(@CurrentAccount() account: AccountId, @Body() body: CreateQrCodeDto) {
    return this.qrCodes.create(account, body);
  }

  @Get()
  @ApiOperation({ summary: 'List your QR codes with filters, search, sorting and pages' })
  @ApiOkResponse({ type: QrCodeListView })
  list(@CurrentAccount() account: AccountId, @Query() query: ListQrCodesQuery) {
    return this.qrCodes.list(account, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a QR code' })
  @ApiOkResponse({ type: QrCodeGetView })
  get(@CurrentAccount() account: AccountId, @Param('id', qrCodeId) id: string) {
    return this.qrCodes.get(account, id);
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a QR code (only the fields sent change)' })
  @ApiOkResponse({ type: MessageView })
  async update(@CurrentAccount() account: AccountId, @Param('id', qrCodeId) id: string, @Body() body: UpdateQrCodeDto) {
    await this.qrCodes.update(account, id, body);
    return { message: 'QR code updated' };
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete a QR code, its scan history and cached images' })
  @ApiOkResponse({ type: MessageView })
  async delete(@CurrentAccount() account: AccountId, @Param('id', qrCodeId) id: string) {
    await this.qrCodes.delete(account, id);
    return { message: 'QR code deleted' };
  }
}
