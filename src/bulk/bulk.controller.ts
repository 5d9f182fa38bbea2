import { Body, Controller, Post } from '@nestjs/common';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import { ApiCreatedResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AccountId } from '../common/ids/account-id';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, JSON_BODY_ERRORS } from '../common/openapi/error-responses';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { ApiJsonBody } from '../common/openapi/json-body';
import { Idempotent } from '../infra/idempotency/idempotent.decorator';
import { BulkService } from './bulk.service';
import { BULK_CREATE_EXAMPLES, BulkCreateDto, BulkCreateResultView, MAX_BULK_ITEMS } from './dto/bulk-create.dto';

@ApiTags('qrcodes')
@ApiSecurity(API_KEY_SCHEME)
@Controller('api/v1/qrcodes/bulk')
export class BulkController {
  constructor(private readonly bulk: BulkService) {}

  @Post()
  @RequiredScope('qrcodes:write')
  @Idempotent()
  @ApiOperation({
    operationId: 'bulkCreateQrCodes',
    summary: `Create up to ${MAX_BULK_ITEMS} QR codes at once`,
    description: 'Valid items are created even when others fail (those are listed in `errors`, still 201). Counts once against the rate limit.',
  })
  @ApiJsonBody(BulkCreateDto, BULK_CREATE_EXAMPLES)
  @ApiCreatedResponse({ type: BulkCreateResultView, description: 'The valid items created, the others listed in errors' })
  @ApiErrorResponses({
    400: {
      description: 'No array of 1 to 50 items',
      message: 'Validation failed: qrcodes must be an array',
      errors: [{ field: 'qrcodes', message: 'qrcodes must be an array' }],
    },
    ...API_KEY_ROUTE_ERRORS,
    ...JSON_BODY_ERRORS,
  })
  create(@CurrentAccount() account: AccountId, @Body() body: BulkCreateDto) {
    return this.bulk.create(account, body.qrcodes);
  }
}
