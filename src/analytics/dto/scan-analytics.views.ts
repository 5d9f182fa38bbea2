import { ApiProperty } from '@nestjs/swagger';
import { REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import { SCAN_INTERVALS } from '../scan-range';

const COUNT = { type: 'integer', minimum: 0 } as const;

/** Response shapes of GET /api/v1/qrcodes/:id/scans, for the OpenAPI document (built in scan-analytics.representation.ts). */
export class ScanTotalsView {
  @ApiProperty({ ...COUNT, description: 'Scans in the window, bots excluded', example: 120 }) scans: number;
  @ApiProperty({
    ...COUNT,
    description: 'Distinct visitors among those scans (visitor hashes rotate daily: a visitor seen on two UTC days counts twice)',
    example: 87,
  })
  unique_visitors: number;
  @ApiProperty({ ...COUNT, description: 'Scans by known link-preview bots and crawlers in the window', example: 4 }) bot_scans: number;
}

export class ScanBucketView {
  @ApiProperty({
    format: 'date-time',
    description:
      'Bucket start: local midnight (or the hour) in `tz`, as a UTC instant ' +
      '(the first bucket may start before `from`; only scans in the window count)',
    example: '2026-11-01T00:00:00.000Z',
  })
  start: string;
  @ApiProperty({ ...COUNT, example: 12 }) scans: number;
  @ApiProperty({ ...COUNT, example: 9 }) unique_visitors: number;
}

export class ScanBreakdownItemView {
  @ApiProperty({ example: 'mobile' }) value: string;
  @ApiProperty({ ...COUNT, example: 64 }) scans: number;
}

export class ScanBreakdownsView {
  @ApiProperty({ type: [ScanBreakdownItemView], description: 'mobile, tablet, desktop or other' }) device: ScanBreakdownItemView[];
  @ApiProperty({ type: [ScanBreakdownItemView] }) os: ScanBreakdownItemView[];
  @ApiProperty({ type: [ScanBreakdownItemView] }) browser: ScanBreakdownItemView[];
  @ApiProperty({ type: [ScanBreakdownItemView], description: 'Referrer host; "direct" without a referrer, "other" when it names no host' })
  referrer: ScanBreakdownItemView[];
}

export class ScanCountryItemView {
  @ApiProperty({ description: 'ISO 3166-1 alpha-2 country code, or "unknown" for scans whose country is not known', example: 'DE' })
  value: string;
  @ApiProperty({ ...COUNT, example: 48 }) scans: number;
}

export class ScanCityItemView {
  @ApiProperty({ description: 'City name (English, as the geo database names it)', example: 'Berlin' }) value: string;
  @ApiProperty({ type: 'string', nullable: true, description: "The city's country (ISO 3166-1 alpha-2)", example: 'DE' }) country: string | null;
  @ApiProperty({ ...COUNT, example: 21 }) scans: number;
}

export class ScanAnalyticsView {
  @ApiProperty({ format: 'uuid', example: '3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37' }) qr_code_id: string;
  @ApiProperty({ format: 'date-time', description: 'Window start (inclusive), UTC', example: '2026-11-01T00:00:00.000Z' }) from: string;
  @ApiProperty({ format: 'date-time', description: 'Window end (exclusive), UTC', example: '2026-12-01T00:00:00.000Z' }) to: string;
  @ApiProperty({ enum: SCAN_INTERVALS, example: 'day' }) interval: string;
  @ApiProperty({ description: "IANA time zone of the buckets' boundaries", example: 'UTC' }) tz: string;
  @ApiProperty({ type: ScanTotalsView }) totals: ScanTotalsView;
  @ApiProperty({ type: [ScanBucketView], description: 'Every bucket of the window in order, zero-filled' }) series: ScanBucketView[];
  @ApiProperty({ type: ScanBreakdownsView, description: 'Top 10 values per dimension among non-bot scans, most scans first, ties by value' })
  breakdowns: ScanBreakdownsView;
  @ApiProperty({
    type: [ScanCountryItemView],
    description:
      'Top 10 countries among non-bot scans, most scans first, ties by code; scans whose country is not known count as "unknown" ' +
      '(docs/scans-and-privacy.md: from a trusted CDN header or the geo database, never from a stored IP)',
    example: [
      { value: 'DE', scans: 48 },
      { value: 'AT', scans: 30 },
      { value: 'unknown', scans: 6 },
    ],
  })
  by_country: ScanCountryItemView[];
  @ApiProperty({
    type: [ScanCityItemView],
    description:
      'Top 10 cities among non-bot scans, most scans first, each with its country; only scans whose city is known ' +
      '(GEOIP_DB set to a city database): empty with the bundled country database',
    example: [
      { value: 'Berlin', country: 'DE', scans: 21 },
      { value: 'Vienna', country: 'AT', scans: 17 },
    ],
  })
  by_city: ScanCityItemView[];
  @ApiProperty({
    type: 'array',
    items: {
      type: 'object',
      properties: { rule: { type: 'integer' }, name: { type: 'string', nullable: true }, scans: { type: 'integer' } },
      required: ['rule', 'name', 'scans'],
    },
    description:
      "Scans each smart-link rule answered (`rule`: its index in the code's rules; `name`: the name the rule at that index has now, " +
      'null without one; docs/smart-links.md#names), most first, top 10',
    example: [
      { rule: 0, name: 'German speakers', scans: 31 },
      { rule: 2, name: null, scans: 12 },
    ],
  })
  by_rule: Array<{ rule: number; name: string | null; scans: number }>;
  @ApiProperty({
    type: 'array',
    items: {
      type: 'object',
      properties: { rule: { type: 'integer' }, arm: { type: 'integer' }, name: { type: 'string', nullable: true }, scans: { type: 'integer' } },
      required: ['rule', 'arm', 'name', 'scans'],
    },
    description:
      "Scans each A/B split arm answered (`arm`: its index in the rule's split; `name`: the arm's name now, null without one), " +
      'per rule, most first, top 10',
    example: [
      { rule: 2, arm: 0, name: 'Landing A', scans: 7 },
      { rule: 2, arm: 1, name: 'Landing B', scans: 5 },
    ],
  })
  by_arm: Array<{ rule: number; arm: number; name: string | null; scans: number }>;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class TopCodeView {
  @ApiProperty({ format: 'uuid', example: '3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37' }) id: string;
  @ApiProperty({ example: 'Spring poster' }) name: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'The short code of its link (dynamic codes)', example: 'x7Kp2q' })
  short_code: string | null;
  @ApiProperty({ example: 'url' }) type: string;
  @ApiProperty({ ...COUNT, description: 'Scans in the window, bots excluded', example: 4120 }) scans: number;
}

export class AccountAnalyticsFiltersView {
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, example: null }) folder_id: string | null;
  @ApiProperty({ type: 'string', nullable: true, example: null }) type: string | null;
}

export class AccountAnalyticsView {
  @ApiProperty({ format: 'date-time', description: 'Window start (inclusive), UTC', example: '2026-10-28T00:00:00.000Z' }) from: string;
  @ApiProperty({ format: 'date-time', description: 'Window end (exclusive), UTC', example: '2026-11-27T00:00:00.000Z' }) to: string;
  @ApiProperty({ enum: SCAN_INTERVALS, example: 'day' }) interval: string;
  @ApiProperty({ description: "IANA time zone of the buckets' boundaries", example: 'UTC' }) tz: string;
  @ApiProperty({ type: AccountAnalyticsFiltersView }) filters: AccountAnalyticsFiltersView;
  @ApiProperty({
    type: ScanTotalsView,
    description: 'Over every code in the filters; unique_visitors counts a visitor once per code and UTC day (summed over codes)',
  })
  totals: ScanTotalsView;
  @ApiProperty({ type: [ScanBucketView], description: 'Every bucket of the window in order, zero-filled, starting at local midnight in `tz`' })
  series: ScanBucketView[];
  @ApiProperty({ type: [TopCodeView], description: 'The 10 codes with the most scans in the window, most first (ties by id)' })
  top_codes: TopCodeView[];
  @ApiProperty({ type: ScanBreakdownsView, description: 'Top 10 values per dimension among non-bot scans, most scans first, ties by value' })
  breakdowns: ScanBreakdownsView;
  @ApiProperty({ type: [ScanCountryItemView], description: 'Top 10 countries among non-bot scans ("unknown": not known)' })
  by_country: ScanCountryItemView[];
  @ApiProperty({ type: [ScanCityItemView], description: 'Top 10 known cities, each with its country' })
  by_city: ScanCityItemView[];
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
