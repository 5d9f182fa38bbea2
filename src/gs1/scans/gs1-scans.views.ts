import { ApiProperty } from '@nestjs/swagger';
import { REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import { ScanBucketView, ScanTotalsView } from '../../analytics/dto/scan-analytics.views';
import { SCAN_INTERVALS } from '../../analytics/scan-range';

class Gs1ScanValueView {
  @ApiProperty({ example: 'gs1:pip' }) value: string;
  @ApiProperty({ type: 'integer', minimum: 0, example: 64 }) scans: number;
}

/** GET /api/v1/gs1/items/:id/scans: a code's /scans for an item, by link type, lot and serial. */
export class Gs1ScansView {
  @ApiProperty({ format: 'uuid', example: '0b7e4f3a-2c1d-4e5f-8a9b-1c2d3e4f5a6b' }) item_id: string;
  @ApiProperty({ format: 'date-time', description: 'Window start (inclusive), UTC', example: '2026-11-01T00:00:00.000Z' }) from: string;
  @ApiProperty({ format: 'date-time', description: 'Window end (exclusive), UTC', example: '2026-12-01T00:00:00.000Z' }) to: string;
  @ApiProperty({ enum: SCAN_INTERVALS, example: 'day' }) interval: string;
  @ApiProperty({ description: "IANA time zone of the buckets' boundaries", example: 'UTC' }) tz: string;
  @ApiProperty({ type: ScanTotalsView }) totals: ScanTotalsView;
  @ApiProperty({ type: [ScanBucketView], description: 'Every bucket of the window in order, zero-filled' }) series: ScanBucketView[];
  @ApiProperty({ type: [Gs1ScanValueView], description: 'Top 10 link types people were sent to, most scans first, ties by value' })
  by_link_type: Gs1ScanValueView[];
  @ApiProperty({ type: [Gs1ScanValueView], description: 'Top 10 lots (AI 10) in the URIs resolved; resolutions without a lot are left out' })
  by_lot: Gs1ScanValueView[];
  @ApiProperty({ type: [Gs1ScanValueView], description: 'Top 10 serials (AI 21) in the URIs resolved; resolutions without a serial are left out' })
  by_serial: Gs1ScanValueView[];
  @ApiProperty({ type: [Gs1ScanValueView], description: 'Top 10 countries (ISO 3166-1 alpha-2, "unknown" when not known)' })
  by_country: Gs1ScanValueView[];
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
