import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { REQUEST_ID_PROPERTY } from '../../../common/openapi/common-views';

/** Query of GET /api/v1/qrcodes/:id/scans.csv; the service parses and checks the window (scan-history-window.ts). */
export class ScanCsvQuery {
  @ApiPropertyOptional({
    format: 'date-time',
    description: "First instant exported, inclusive (ISO 8601; no offset means UTC). Default: the code's whole history.",
    example: '2026-11-01T00:00:00Z',
  })
  @IsOptional()
  @IsString({ message: 'from must be a single ISO 8601 date-time' })
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'End of the export, exclusive (ISO 8601; no offset means UTC). Default: now. Any span: the rows are streamed.',
    example: '2026-12-01T00:00:00Z',
  })
  @IsOptional()
  @IsString({ message: 'to must be a single ISO 8601 date-time' })
  to?: string;
}

/** Query of DELETE /api/v1/qrcodes/:id/scans. */
export class EraseScansQuery {
  @ApiProperty({
    format: 'date-time',
    description: 'Scans strictly before this instant are erased (ISO 8601; no offset means UTC). Required.',
    example: '2026-11-01T00:00:00Z',
  })
  @IsOptional()
  @IsString({ message: 'before must be a single ISO 8601 date-time' })
  before?: string;
}

export class ScansErasedView {
  @ApiProperty({ format: 'uuid', example: '0b8a3c0e-5a4f-4b7e-9d61-3f2a1c9e8b70' }) qr_code_id: string;
  @ApiProperty({
    format: 'date-time',
    description: 'The cut as read (UTC, milliseconds): scans before it are gone',
    example: '2026-11-01T00:00:00.000Z',
  })
  before: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Scan events deleted (bots included)', example: 1280 }) deleted_events: number;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
