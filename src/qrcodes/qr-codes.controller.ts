import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import { ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { AccountId } from '../common/ids/account-id';
import { Idempotent } from '../infra/idempotency/idempotent.decorator';
import type { QrCodeId } from '../common/ids/resource-ids';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { MessageView } from '../common/openapi/common-views';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, ID_NOT_A_UUID, JSON_BODY_ERRORS } from '../common/openapi/error-responses';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { ApiJsonBody } from '../common/openapi/json-body';
import { qrCodeIdPipe } from '../common/validation/resource-id.pipe';
import { CONTENT_DTOS, CreateQrCodeDto } from './dto/create-qr-code.dto';
import { LINK_SETTINGS_DTOS } from '../smart-links/settings/link-settings.dto';
import { ListQrCodesQuery } from './dto/list-qr-codes.query';
import { CREATE_QR_CODE_EXAMPLES, UPDATE_QR_CODE_EXAMPLES } from './dto/qr-code.examples';
import { QrCodeCreatedView, QrCodeGetView, QrCodeListView, QrCodeUpdatedView } from './dto/qr-code.views';
import { UpdateQrCodeDto } from './dto/update-qr-code.dto';
import { UpdateQrCodeQuery } from './dto/update-qr-code.query';
import { QrCodesService } from './qr-codes.service';

/** The `id` path parameter of every QR code route, and its 404. */
export const ApiQrCodeIdParam = () =>
  ApiParam({ name: 'id', description: 'Id of one of your QR codes', format: 'uuid', example: '3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37' });
export const QR_CODE_NOT_FOUND = { 404: { description: 'No such QR code among yours', message: 'QR code not found' } } as const;
/** The errors of a route whose only input is the id. */
const QR_CODE_ID_ERRORS = { 400: ID_NOT_A_UUID, ...QR_CODE_NOT_FOUND } as const;

@ApiTags('qrcodes')
@ApiSecurity(API_KEY_SCHEME)
@ApiExtraModels(...CONTENT_DTOS, ...LINK_SETTINGS_DTOS)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/qrcodes')
export class QrCodesController {
  constructor(private readonly qrCodes: QrCodesService) {}

  @Post()
  @RequiredScope('qrcodes:write')
  @Idempotent()
  @ApiOperation({ operationId: 'createQrCode', summary: 'Create a QR code' })
  @ApiJsonBody(CreateQrCodeDto, CREATE_QR_CODE_EXAMPLES)
  @ApiCreatedResponse({ type: QrCodeCreatedView, description: 'Created' })
  @ApiErrorResponses({
    400: {
      message: 'Validation failed: content.url must be an absolute http or https URL',
      errors: [{ field: 'content.url', message: 'content.url must be an absolute http or https URL' }],
    },
    ...JSON_BODY_ERRORS,
  })
  create(@CurrentAccount() account: AccountId, @Body() body: CreateQrCodeDto) {
    return this.qrCodes.create(account, body);
  }

  @Get()
  @RequiredScope('qrcodes:read')
  @ApiOperation({ operationId: 'listQrCodes', summary: 'List your QR codes with filters, search, sorting and pages' })
  @ApiOkResponse({ type: QrCodeListView, description: 'One page of your codes' })
  @ApiErrorResponses({
    400: {
      message: 'Validation failed: limit must not be greater than 100',
      errors: [{ field: 'limit', message: 'limit must not be greater than 100' }],
    },
  })
  list(@CurrentAccount() account: AccountId, @Query() query: ListQrCodesQuery) {
    return this.qrCodes.list(account, query);
  }

  @Get(':id')
  @RequiredScope('qrcodes:read')
  @ApiOperation({ operationId: 'getQrCode', summary: 'Get a QR code' })
  @ApiQrCodeIdParam()
  @ApiOkResponse({ type: QrCodeGetView, description: 'The code' })
  @ApiErrorResponses(QR_CODE_ID_ERRORS)
  get(@CurrentAccount() account: AccountId, @Param('id', qrCodeIdPipe) id: QrCodeId) {
    return this.qrCodes.get(account, id);
  }

  @Put(':id')
  @RequiredScope('qrcodes:write')
  @ApiOperation({ operationId: 'updateQrCode', summary: 'Update a QR code (only the fields sent change)' })
  @ApiQrCodeIdParam()
  @ApiJsonBody(UpdateQrCodeDto, UPDATE_QR_CODE_EXAMPLES)
  @ApiOkResponse({ type: QrCodeUpdatedView, description: 'Updated: the code as it is now' })
  @ApiErrorResponses({
    400: {
      description: 'Invalid input (with content_merge=true: the merged content), a type change, or an attempt to make a dynamic code static',
      message: 'Validation failed: a dynamic code cannot become static: its short link stays active',
      errors: [{ field: 'is_dynamic', message: 'a dynamic code cannot become static: its short link stays active' }],
    },
    ...QR_CODE_NOT_FOUND,
    ...JSON_BODY_ERRORS,
  })
  async update(
    @CurrentAccount() account: AccountId,
    @Param('id', qrCodeIdPipe) id: QrCodeId,
    @Query() query: UpdateQrCodeQuery,
    @Body() body: UpdateQrCodeDto,
  ) {
    const qrcode = await this.qrCodes.update(account, id, body, { mergeContent: query.content_merge === 'true' });
    return { message: 'QR code updated', qrcode };
  }

  @Delete(':id')
  @RequiredScope('qrcodes:write')
  @HttpCode(200)
  @ApiOperation({ operationId: 'deleteQrCode', summary: 'Delete a QR code, its scan history and cached images' })
  @ApiQrCodeIdParam()
  @ApiOkResponse({ type: MessageView, description: 'Deleted; a dynamic link stops redirecting (404)' })
  @ApiErrorResponses(QR_CODE_ID_ERRORS)
  async delete(@CurrentAccount() account: AccountId, @Param('id', qrCodeIdPipe) id: QrCodeId) {
    await this.qrCodes.delete(account, id);
    return { message: 'QR code deleted' };
  }
}
