import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { IsOptionalNotNull } from '../../common/validation/optional-not-null';
import { PaginationView, REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import type { BodyExample } from '../../common/openapi/json-body';
import type { ApiKeyRecord } from '../api-keys.repository';
import type { CreatedApiKey } from '../api-keys.service';
import { PageLimit, PageNumber } from '../../common/validation/page-query';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'ci pipeline', minLength: 1, maxLength: 100, pattern: '\\S', description: 'Not blank' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', description: 'Existing account to add the key to (rotation); omitted = a new account' })
  @IsOptionalNotNull()
  @IsUUID()
  account_id?: string;
}

/** Request examples; each is valid as it stands (a test executes them). */
export const CREATE_API_KEY_EXAMPLES: Record<string, BodyExample<CreateApiKeyDto>> = {
  newAccount: { summary: 'A key for a new account', value: { name: 'marketing' } },
};

const ID = { format: 'uuid', example: 'b2587ea3-9151-4197-b2c6-4df0a9cddaff' };
const ACCOUNT_ID = { format: 'uuid', description: 'The account the key acts for', example: '27bf3bcf-fae5-4500-9b0a-6bb2b0b00d4e' };
const PREFIX = { description: 'The first characters of the key, to recognise it', example: 'qr_live_7FkS' };
const CREATED_AT = { format: 'date-time', example: '2026-11-24T09:30:00.000Z' };

export class ApiKeyView {
  @ApiProperty(ID) id: string;
  @ApiProperty({ example: 'marketing' }) name: string;
  @ApiProperty(PREFIX) prefix: string;
  @ApiProperty(ACCOUNT_ID) account_id: string;
  @ApiProperty(CREATED_AT) created_at: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Null until first used (kept to the minute)',
    example: '2026-11-24T10:02:00.000Z',
  })
  last_used_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Null while the key works', example: null })
  revoked_at: string | null;

  static from(record: ApiKeyRecord): ApiKeyView {
    return {
      id: record.id,
      name: record.name,
      prefix: record.prefix,
      account_id: record.accountId,
      created_at: record.createdAt.toISOString(),
      last_used_at: record.lastUsedAt?.toISOString() ?? null,
      revoked_at: record.revokedAt?.toISOString() ?? null,
    };
  }
}

/** A page of the key list (oldest first). */
export class ListApiKeysQuery {
  @PageNumber()
  page: number = 1;

  @PageLimit(50)
  limit: number = 50;
}

export class ApiKeyListView {
  @ApiProperty({ type: [ApiKeyView] }) data: ApiKeyView[];
  @ApiProperty({ type: PaginationView }) pagination: PaginationView;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class CreatedApiKeyView {
  @ApiProperty(ID) id: string;
  @ApiProperty({ example: 'marketing' }) name: string;
  @ApiProperty({
    description: 'The API key, for the X-API-Key header. Shown only in this response; store it now.',
    example: 'qr_live_7FkSZgDFLOD1oCRM8qjjCsVOQyNCd6KDZi0fl8fY',
  })
  key: string;
  @ApiProperty(PREFIX) prefix: string;
  @ApiProperty(ACCOUNT_ID) account_id: string;
  @ApiProperty(CREATED_AT) created_at: string;

  static from(created: CreatedApiKey): CreatedApiKeyView {
    return {
      id: created.id,
      name: created.name,
      key: created.key,
      prefix: created.prefix,
      account_id: created.accountId,
      created_at: created.createdAt.toISOString(),
    };
  }
}

export class CreatedApiKeyResponseView extends CreatedApiKeyView {
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
