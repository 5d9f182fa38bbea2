import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsISO8601, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import type { BodyExample } from '../../common/openapi/json-body';
import { STATS_SECTIONS, type StatsSection } from '../stats-page/stats-sections';

export class CreateShareLinkDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'When the link stops working (any future time). Default: never.' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'expires_at must be an ISO 8601 date-time' })
  expires_at?: string;

  @ApiPropertyOptional({ minLength: 4, maxLength: 128, description: 'Viewers must enter it first (stored as an argon2id hash, never returned)' })
  @IsOptional()
  @IsString()
  @MinLength(4)
  @MaxLength(128)
  password?: string;

  @ApiPropertyOptional({
    type: [String],
    enum: STATS_SECTIONS,
    description: 'The sections the page shows, in any order. Default: all of them.',
    example: ['totals', 'series', 'countries'],
  })
  @IsOptional()
  @IsArray()
  @ArrayUnique({ message: 'fields must not repeat a section' })
  @ArrayMaxSize(STATS_SECTIONS.length)
  @IsIn(STATS_SECTIONS, { each: true, message: `each of fields must be one of: ${STATS_SECTIONS.join(', ')}` })
  fields?: StatsSection[];
}

export const CREATE_SHARE_LINK_EXAMPLES: Record<string, BodyExample<CreateShareLinkDto>> = {
  everything: { summary: 'Every section, no expiry', value: {} },
  client: { summary: 'Totals and the series only, with a password', value: { fields: ['totals', 'series'], password: 'spring-report' } },
};

const TIMESTAMP = { format: 'date-time', example: '2026-11-24T09:30:00.000Z' };

export class ShareLinkView {
  @ApiProperty({ format: 'uuid', description: 'Revoke with DELETE /api/v1/share-links/{token_id}' }) token_id: string;
  @ApiProperty({ description: 'The public page; append .json for its data', example: 'https://qr.example.com/s/Cw0...' }) url: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) qr_code_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) folder_id: string | null;
  @ApiProperty({ nullable: true, type: String, description: "The tag's name (now: a rename shows here), for a tag's link", example: null })
  tag: string | null;
  @ApiProperty({ type: [String], enum: STATS_SECTIONS }) fields: string[];
  @ApiProperty({ description: 'Whether viewers must enter a password' }) has_password: boolean;
  @ApiProperty({ ...TIMESTAMP, nullable: true, type: String }) expires_at: string | null;
  @ApiProperty({ ...TIMESTAMP, nullable: true, type: String }) revoked_at: string | null;
  @ApiProperty(TIMESTAMP) created_at: string;
}

export class ShareLinkGetView extends ShareLinkView {
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class ShareLinkListView {
  @ApiProperty({ type: [ShareLinkView] }) data: ShareLinkView[];
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
