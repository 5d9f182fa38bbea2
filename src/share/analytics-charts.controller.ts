import { Controller, Get, Header, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ScanAnalyticsService } from '../analytics/scan-analytics.service';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses } from '../common/openapi/error-responses';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { qrCodeIdPipe } from '../common/validation/resource-id.pipe';
import { analyticsChartSvg } from './charts/analytics-chart';
import { AccountChartQuery, CodeChartQuery } from './dto/chart.query';

const SVG_RESPONSE = {
  status: 200,
  description: 'The chart: an SVG document with a title and a description (its numbers are those of the JSON answer for the same query)',
  content: { 'image/svg+xml': { schema: { type: 'string', example: '<svg xmlns="http://www.w3.org/2000/svg" role="img">…</svg>' } } },
} as const;
const QUERY_ERRORS = {
  400: {
    description: 'A query parameter of the JSON answer is invalid, or chart is unknown',
    message: 'Validation failed: chart must be one of: series, countries, devices, os, browsers, referrers',
    errors: [{ field: 'chart', message: 'chart must be one of: series, countries, devices, os, browsers, referrers' }],
  },
} as const;

/** The analytics as SVG charts for key holders (docs/sharing.md#charts): the stats pages' charts, for any query of the JSON answers. */
@ApiTags('analytics')
@ApiSecurity(API_KEY_SCHEME)
@Controller('api/v1')
export class AnalyticsChartsController {
  constructor(private readonly analytics: ScanAnalyticsService) {}

  @Get('analytics/chart.svg')
  @RequiredScope('analytics:read')
  @Header('content-type', 'image/svg+xml')
  @Header('cache-control', 'private, no-store')
  @Header('content-security-policy', "default-src 'none'")
  @ApiOperation({ operationId: 'getAccountAnalyticsChart', summary: 'A chart of the account-wide analytics (the query of GET /api/v1/analytics)' })
  @ApiProduces('image/svg+xml')
  @ApiResponse(SVG_RESPONSE)
  @ApiErrorResponses({
    ...QUERY_ERRORS,
    404: { description: 'folder_id names no folder of yours', message: 'Folder not found' },
    ...API_KEY_ROUTE_ERRORS,
  })
  async account(@CurrentAccount() account: AccountId, @Query() query: AccountChartQuery): Promise<string> {
    const { chart, ...analyticsQuery } = query;
    return analyticsChartSvg(await this.analytics.account(account, analyticsQuery), chart);
  }

  @Get('qrcodes/:id/scans/chart.svg')
  @RequiredScope('analytics:read')
  @Header('content-type', 'image/svg+xml')
  @Header('cache-control', 'private, no-store')
  @Header('content-security-policy', "default-src 'none'")
  @ApiOperation({ operationId: 'getQrCodeScansChart', summary: "A chart of one code's scan analytics (the query of GET /api/v1/qrcodes/{id}/scans)" })
  @ApiParam({ name: 'id', format: 'uuid', description: 'Id of one of your QR codes (the `id` of a create answer or of GET /api/v1/qrcodes)' })
  @ApiProduces('image/svg+xml')
  @ApiResponse(SVG_RESPONSE)
  @ApiErrorResponses({ ...QUERY_ERRORS, 404: { description: 'No such code among yours', message: 'QR code not found' }, ...API_KEY_ROUTE_ERRORS })
  async code(@CurrentAccount() account: AccountId, @Param('id', qrCodeIdPipe) id: QrCodeId, @Query() query: CodeChartQuery): Promise<string> {
    const { chart, ...analyticsQuery } = query;
    return analyticsChartSvg(await this.analytics.scans(account, id, analyticsQuery), chart);
  }
}
