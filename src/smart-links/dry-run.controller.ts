import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, JSON_BODY_ERRORS } from '../common/openapi/error-responses';
import { ApiJsonBody } from '../common/openapi/json-body';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { qrCodeIdPipe } from '../common/validation/resource-id.pipe';
import { ApiQrCodeIdParam, QR_CODE_NOT_FOUND } from '../qrcodes/qr-codes.controller';
import { RESOLVE_SCAN_EXAMPLES, ResolvedScanView, ResolveScanDto } from './dto/dry-run.dto';
import { DryRunService } from './dry-run.service';

/** The dry-run resolver's route (docs/smart-links.md#dry-run-resolver). */
@ApiTags('qrcodes')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/qrcodes')
export class DryRunController {
  constructor(private readonly dryRun: DryRunService) {}

  @Post(':id/resolve')
  @HttpCode(200)
  @RequiredScope('qrcodes:read')
  @ApiOperation({
    operationId: 'resolveQrCodeScan',
    summary: 'Dry-run a scan: what the redirect host would answer, which rule and arm match, and why earlier rules do not',
    description:
      'Evaluates a simulated scan against the code as stored now, with the redirect host’s own rules evaluator (docs/smart-links.md). ' +
      'Counts nothing and reserves no scan of a limited code.',
  })
  @ApiQrCodeIdParam()
  @ApiJsonBody(ResolveScanDto, RESOLVE_SCAN_EXAMPLES)
  @ApiOkResponse({ type: ResolvedScanView, description: 'What the scan would get' })
  @ApiErrorResponses({
    400: {
      description: 'Invalid simulated scan, or a static code (it has no link)',
      message: 'Validation failed: this code is static: it has no link to resolve (make it dynamic first)',
      errors: [{ field: 'id', message: 'this code is static: it has no link to resolve (make it dynamic first)' }],
    },
    ...QR_CODE_NOT_FOUND,
    ...JSON_BODY_ERRORS,
  })
  resolve(@CurrentAccount() account: AccountId, @Param('id', qrCodeIdPipe) id: QrCodeId, @Body() body: ResolveScanDto) {
    return this.dryRun.resolve(account, id, body);
  }
}
