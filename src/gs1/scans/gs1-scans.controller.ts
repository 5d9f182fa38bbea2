import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ScanAnalyticsQuery } from '../../analytics/dto/scan-analytics.query';
import { CurrentAccount } from '../../common/auth/current-account.decorator';
import { RequiredScope } from '../../common/auth/required-scope.decorator';
import type { AccountId } from '../../common/ids/account-id';
import type { Gs1ItemId } from '../../common/ids/resource-ids';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses } from '../../common/openapi/error-responses';
import { API_KEY_SCHEME } from '../../common/openapi/security-schemes';
import { gs1ItemIdPipe } from '../../common/validation/resource-id.pipe';
import { Gs1ScansService } from './gs1-scans.service';
import { Gs1ScansView } from './gs1-scans.views';

@ApiTags('gs1')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/gs1/items')
export class Gs1ScansController {
  constructor(private readonly service: Gs1ScansService) {}

  @Get(':id/scans')
  @RequiredScope('gs1:read')
  @ApiOperation({
    operationId: 'getGs1ItemScans',
    summary: 'Scans of a GS1 item',
    description:
      'Resolutions that redirected a person to one of the item’s links (HEAD, linksets, 300s and errors are not scans): ' +
      'totals, unique visitors, a zero-filled series and the top link types, lots, serials and countries, for scans with from <= time < to. ' +
      'Bot scans are counted apart and excluded from everything else. Scans are stored about a quarter of a second after the redirect.',
  })
  @ApiParam({ name: 'id', description: 'Id of one of your GS1 items', format: 'uuid', example: '0b7e4f3a-2c1d-4e5f-8a9b-1c2d3e4f5a6b' })
  @ApiOkResponse({ type: Gs1ScansView, description: 'Totals, series and breakdowns of the window' })
  @ApiErrorResponses({
    400: {
      description: 'from or to not an ISO 8601 date-time, from not before to, the window too long for the interval, or an unknown interval',
      message: 'Validation failed: from must be earlier than 2026-11-01T00:00:00.000Z',
      errors: [{ field: 'from', message: 'from must be earlier than 2026-11-01T00:00:00.000Z' }],
    },
    404: { description: 'No such GS1 item among yours', message: 'GS1 item not found' },
  })
  scans(@CurrentAccount() account: AccountId, @Param('id', gs1ItemIdPipe) id: Gs1ItemId, @Query() query: ScanAnalyticsQuery) {
    return this.service.report(account, id, query);
  }
}
