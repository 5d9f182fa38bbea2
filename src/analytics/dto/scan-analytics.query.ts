import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { DEFAULT_SPAN_DAYS, MAX_SPAN_DAYS, SCAN_INTERVALS, ScanInterval } from '../scan-range';

/** Query of GET /api/v1/qrcodes/:id/scans; the service parses and checks the window (scan-range.ts). */
export class ScanAnalyticsQuery {
  @ApiPropertyOptional({
    format: 'date-time',
    description: `Start of the window, inclusive (ISO 8601; no offset means UTC). Default: ${DEFAULT_SPAN_DAYS} days before \`to\`.`,
    example: '2026-11-01T00:00:00Z',
  })
  @IsOptional()
  @IsString({ message: 'from must be a single ISO 8601 date-time' })
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'End of the window, exclusive (ISO 8601; no offset means UTC). Default: now.',
    example: '2026-12-01T00:00:00Z',
  })
  @IsOptional()
  @IsString({ message: 'to must be a single ISO 8601 date-time' })
  to?: string;

  @ApiPropertyOptional({
    enum: SCAN_INTERVALS,
    default: 'day',
    description:
      'Bucket size of the series, in `tz` (week = ISO week from Monday). ' +
      `Longest window: ${MAX_SPAN_DAYS.hour} days for hour, ${MAX_SPAN_DAYS.day} for day and week, ${MAX_SPAN_DAYS.month} for month.`,
  })
  @IsOptional()
  @IsIn(SCAN_INTERVALS, { message: `interval must be one of: ${SCAN_INTERVALS.join(', ')}` })
  interval: ScanInterval = 'day';

  @ApiPropertyOptional({
    description:
      "IANA time zone of the buckets' boundaries (days, weeks, months start at local midnight). Default: UTC. " +
      'Zones other than UTC cut UTC days, whose parts are read from raw scans: slower over long windows on busy codes.',
    example: 'Europe/Berlin',
    default: 'UTC',
  })
  @IsOptional()
  @IsString({ message: 'tz must be a single IANA time zone name' })
  tz?: string;
}
