import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AccountId } from '../common/auth/account-id';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { BulkService } from './bulk.service';
import { BulkCreateDto, BulkCreateResultView } from './dto/bulk-create.dto';

@ApiTags('qrcodes')
@ApiSecurity('api-key')
@Controller('api/v1/qrcodes/bulk')
export class BulkController {
  constructor(private readonly bulk: BulkService) {}

  @Post()
  @ApiOperation({ summary: 'Create up to 50 QR codes at once; valid items are created even when others fail. Counts once against the rate limit.' })
  @ApiCreatedResponse({ type: BulkCreateResultView })
  create(@CurrentAccount() account: AccountId, @Body() body: BulkCreateDto) {
    return this.bulk.create(account, body.qrcodes);
  }
}
