import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import type { AccountId } from '../common/ids/account-id';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses } from '../common/openapi/error-responses';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { AccountAnalyticsQuery } from './dto/account-analytics.query';
import { AccountAnalyticsView } from './dto/scan-analytics.views';
import { ScanAnalyticsService } from './scan-analytics.service';

@ApiTags('analytics')
@ApiSecurity(API_KEY_SCHEME)
@Controller('api/v1/analytics')
export class AccountAnalyticsController {
  constructor(private readonly analytics: ScanAnalyticsService) {}

  @Get()
  @RequiredScope('analytics:read')
  @ApiOperation({
    operationId: 'getAccountAnalytics',
    summary: 'Scan analytics of the whole account',
    description:
      'Totals, unique visitors, a zero-filled series, the top 10 codes and top-10 breakdowns by country, device, OS, browser and referrer host ' +
      "over every code of the account (or of one folder, or one type; a folder-restricted key sees its folders' codes only) " +
      'for scans with from <= time < to. Buckets start at local midnight in `tz`. Bot scans are counted apart and excluded from everything else.',
  })
  @ApiOkResponse({ type: AccountAnalyticsView, description: 'Totals, series, top codes and breakdowns of the window' })
  @ApiErrorResponses({
    400: {
      description:
        'from or to not an ISO 8601 date-time, from not before to, the window too long for the interval, ' +
        'an unknown interval, tz or type, or folder_id not a UUID',
      message: 'Validation failed: tz must be an IANA time zone name, e.g. Europe/Berlin or UTC',
      errors: [{ field: 'tz', message: 'tz must be an IANA time zone name, e.g. Europe/Berlin or UTC' }],
    },
    404: { description: 'folder_id names no folder of yours', message: 'Folder not found' },
    ...API_KEY_ROUTE_ERRORS,
  })
  account(@CurrentAccount() account: AccountId, @Query() query: AccountAnalyticsQuery) {
    return this.analytics.account(account, query);
  }
}
