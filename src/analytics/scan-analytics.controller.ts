import { Controller, Get, Param, Query } from '@nestjs/common';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses } from '../common/openapi/error-responses';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { ApiQrCodeIdParam, QR_CODE_NOT_FOUND } from '../qrcodes/qr-codes.controller';
import { qrCodeIdPipe } from '../common/validation/resource-id.pipe';
import { ScanAnalyticsQuery } from './dto/scan-analytics.query';
import { ScanAnalyticsView } from './dto/scan-analytics.views';
import { ScanAnalyticsService } from './scan-analytics.service';

@ApiTags('qrcodes')
@ApiSecurity(API_KEY_SCHEME)
@Controller('api/v1/qrcodes')
export class ScanAnalyticsController {
  constructor(private readonly analytics: ScanAnalyticsService) {}

  @Get(':id/scans')
  @RequiredScope('analytics:read')
  @ApiOperation({
    operationId: 'getQrCodeScans',
    summary: 'Scan analytics of a QR code',
    description:
      'Totals, unique visitors, a zero-filled time series (UTC buckets) and top-10 breakdowns by device, OS, browser and referrer host ' +
      'for scans with from <= time < to. Bot scans are counted apart and excluded from everything else. ' +
      'Scans reach analytics when the scan buffer is flushed, about a second after the redirect.',
  })
  @ApiQrCodeIdParam()
  @ApiOkResponse({ type: ScanAnalyticsView, description: 'Totals, series and breakdowns of the window' })
  @ApiErrorResponses({
    400: {
      description: 'from or to not an ISO 8601 date-time, from not before to, the window too long for the interval, or an unknown interval',
      message: 'Validation failed: from must be earlier than 2026-11-01T00:00:00.000Z',
      errors: [{ field: 'from', message: 'from must be earlier than 2026-11-01T00:00:00.000Z' }],
    },
    ...QR_CODE_NOT_FOUND,
    ...API_KEY_ROUTE_ERRORS,
  })
  scans(@CurrentAccount() account: AccountId, @Param('id', qrCodeIdPipe) id: QrCodeId, @Query() query: ScanAnalyticsQuery) {
    return this.analytics.scans(account, id, query);
  }
}
