import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import { PageLimit } from '../../common/validation/page-query';

import { AUDIT_RESOURCE_TYPES } from '../../infra/audit/audit-trail';

export class AuditLogQuery {
  @ApiPropertyOptional({ enum: AUDIT_RESOURCE_TYPES, example: 'qrcode' })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  resource_type?: string;

  @ApiPropertyOptional({ description: 'Id of the resource', example: '3f6d2a8e-1c4b-4e7a-9b2d-6f8e0a1c3d5b' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  resource_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Id of the API key that made the change', example: 'b2587ea3-9151-4197-b2c6-4df0a9cddaff' })
  @IsOptional()
  @IsUUID('all', { message: 'key_id must be a UUID' })
  key_id?: string;

  @ApiPropertyOptional({ description: '`<resource>.<verb>`', example: 'qrcode.update' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  action?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Entries at or after this time', example: '2026-11-01T00:00:00.000Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time' })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Entries before this time', example: '2026-12-01T00:00:00.000Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time' })
  to?: string;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page', example: 'MTIzNDU' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,32}$/, { message: 'cursor must be a next_cursor of this list' })
  cursor?: string;

  @PageLimit(50)
  limit: number = 50;
}

export class AuditEntryView {
  @ApiProperty({ format: 'uuid', example: '5e0b8f7a-2c1d-4a3b-9e8f-7d6c5b4a3f2e' }) id: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-26T18:00:00.000Z' }) created_at: string;
  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'null: the admin token',
    example: 'b2587ea3-9151-4197-b2c6-4df0a9cddaff',
  })
  key_id: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Display prefix of the key, or "admin"', example: 'qr_live_AbCd' })
  key_prefix: string | null;
  @ApiProperty({ example: 'qrcode.update' }) action: string;
  @ApiProperty({ enum: AUDIT_RESOURCE_TYPES, example: 'qrcode' }) resource_type: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'null for a bulk create (its ids are in changes.ids)',
    example: '3f6d2a8e-1c4b-4e7a-9b2d-6f8e0a1c3d5b',
  })
  resource_id: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'req-7f3a9c' }) request_id: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'Changed fields only: `before` and `after` (create: after only; delete: before only); a bulk create: `ids`. ' +
      'Secrets (a link password, a signing secret, key material) appear as "changed" (null when unset). An update that changed nothing has no entry.',
    example: { before: { name: 'Menu' }, after: { name: 'Winter menu' } },
  })
  changes: Record<string, unknown>;
}

export class AuditLogView {
  @ApiProperty({ type: [AuditEntryView], description: 'Newest first' }) data: AuditEntryView[];
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` for the next (older) page; null on the last page', example: 'MTIzNDU' })
  next_cursor: string | null;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
