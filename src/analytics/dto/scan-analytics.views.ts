import { ApiProperty } from '@nestjs/swagger';
import { SCAN_INTERVALS } from '../scan-range';

/** Response shapes of GET /api/v1/qrcodes/:id/scans, for the OpenAPI document (built in scan-analytics.representation.ts). */
export class ScanTotalsView {
  @ApiProperty({ description: 'Scans in the window, bots excluded' }) scans: number;
  @ApiProperty({ description: 'Distinct visitors among those scans (visitor hashes rotate daily: a visitor seen on two UTC days counts twice)' })
  unique_visitors: number;
  @ApiProperty({ description: 'Scans by known link-preview bots and crawlers in the window' }) bot_scans: number;
}

export class ScanBucketView {
  @ApiProperty({ format: 'date-time', description: 'Bucket start in UTC (the first bucket may start before `from`; only scans in the window count)' })
  start: string;
  @ApiProperty() scans: number;
  @ApiProperty() unique_visitors: number;
}

export class ScanBreakdownItemView {
  @ApiProperty({ example: 'mobile' }) value: string;
  @ApiProperty() scans: number;
}

export class ScanBreakdownsView {
  @ApiProperty({ type: [ScanBreakdownItemView], description: 'mobile, tablet, desktop or other' }) device: ScanBreakdownItemView[];
  @ApiProperty({ type: [ScanBreakdownItemView] }) os: ScanBreakdownItemView[];
  @ApiProperty({ type: [ScanBreakdownItemView] }) browser: ScanBreakdownItemView[];
  @ApiProperty({ type: [ScanBreakdownItemView], description: 'Referrer host; "direct" without a referrer, "other" when it names no host' })
  referrer: ScanBreakdownItemView[];
}

export class ScanAnalyticsView {
  @ApiProperty({ format: 'uuid' }) qr_code_id: string;
  @ApiProperty({ format: 'date-time', description: 'Window start (inclusive), UTC' }) from: string;
  @ApiProperty({ format: 'date-time', description: 'Window end (exclusive), UTC' }) to: string;
  @ApiProperty({ enum: SCAN_INTERVALS }) interval: string;
  @ApiProperty() totals: ScanTotalsView;
  @ApiProperty({ type: [ScanBucketView], description: 'Every bucket of the window in order, zero-filled' }) series: ScanBucketView[];
  @ApiProperty({ description: 'Top 10 values per dimension among non-bot scans, most scans first, ties by value' })
  breakdowns: ScanBreakdownsView;
  @ApiProperty() request_id: string;
}
