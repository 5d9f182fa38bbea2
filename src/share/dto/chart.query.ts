import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { AccountAnalyticsQuery } from '../../analytics/dto/account-analytics.query';
import { ScanAnalyticsQuery } from '../../analytics/dto/scan-analytics.query';
import { ANALYTICS_CHARTS, type AnalyticsChart } from '../charts/analytics-chart';

const CHART = {
  enum: ANALYTICS_CHARTS,
  default: 'series',
  description: 'Which chart: the series (scans and unique visitors per bucket) or a breakdown (its top 10)',
};
const CHART_MESSAGE = { message: `chart must be one of: ${ANALYTICS_CHARTS.join(', ')}` };

/** GET /api/v1/qrcodes/:id/scans/chart.svg: the window of /scans and the chart to draw. */
export class CodeChartQuery extends ScanAnalyticsQuery {
  @ApiPropertyOptional(CHART)
  @IsOptional()
  @IsIn(ANALYTICS_CHARTS, CHART_MESSAGE)
  chart: AnalyticsChart = 'series';
}

/** GET /api/v1/analytics/chart.svg: the window and filters of /analytics and the chart to draw. */
export class AccountChartQuery extends AccountAnalyticsQuery {
  @ApiPropertyOptional(CHART)
  @IsOptional()
  @IsIn(ANALYTICS_CHARTS, CHART_MESSAGE)
  chart: AnalyticsChart = 'series';
}
