import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsISO8601, IsNotEmpty, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { ALL_SCOPES, ANY_SCOPE } from '../../common/auth/scopes';
import { IsOptionalNotNull } from '../../common/validation/optional-not-null';
import { PaginationView, REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import type { BodyExample } from '../../common/openapi/json-body';
import type { ApiKeyRecord } from '../api-keys.repository';
import type { CreatedApiKey, KeyGrant } from '../api-keys.service';
import type { FolderId } from '../../common/ids/resource-ids';
import { PageLimit, PageNumber } from '../../common/validation/page-query';

const SCOPE_NAMES = [ANY_SCOPE, ...ALL_SCOPES];

/** What a new key may do: the fields the admin API and a key's own create share. */
export class ApiKeyGrantDto {
  @ApiProperty({ example: 'ci pipeline', minLength: 1, maxLength: 100, pattern: '\\S', description: 'Not blank' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name: string;

  @ApiPropertyOptional({
    type: [String],
    enum: SCOPE_NAMES,
    uniqueItems: true,
    minItems: 1,
    maxItems: SCOPE_NAMES.length,
    description:
      'What the key may do: `<resource>:<read|write>` (`write` implies `read`) or `*` for everything (the default). ' +
      'A key creating a key can grant only scopes it holds.',
    example: ['qrcodes:write', 'analytics:read'],
  })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(SCOPE_NAMES.length)
  @IsString({ each: true })
  scopes?: string[];

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: 100,
    description:
      'Limits the key to codes in these folders of the account (lists and analytics see only them, a create must name one of them, ' +
      'a code elsewhere answers 404). Left out: every folder. A key creating a key can only narrow its own folders.',
  })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  folder_ids?: string[];

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'In the future: after this instant the key answers 401. Left out: never expires.',
    example: '2027-06-30T00:00:00.000Z',
  })
  @IsOptionalNotNull()
  @IsISO8601({ strict: true })
  expires_at?: string;
}

/** The grant a create asks for, ids in the case Postgres prints them. */
export function grantOf(body: ApiKeyGrantDto): KeyGrant {
  return {
    scopes: body.scopes,
    folderIds: body.folder_ids?.map((id) => id.toLowerCase() as FolderId),
    expiresAt: body.expires_at === undefined ? undefined : new Date(body.expires_at),
  };
}

/** A key created by a key of the account (self-service). */
export class CreateOwnApiKeyDto extends ApiKeyGrantDto {}

export class CreateApiKeyDto extends ApiKeyGrantDto {
  @ApiPropertyOptional({ type: String, format: 'uuid', description: 'Existing account to add the key to (rotation); omitted = a new account' })
  @IsOptionalNotNull()
  @IsUUID()
  account_id?: string;
}

export const CREATE_OWN_API_KEY_EXAMPLES: Record<string, BodyExample<CreateOwnApiKeyDto>> = {
  printAgency: {
    summary: 'A read-only key for a print agency, expiring',
    value: { name: 'print agency', scopes: ['qrcodes:read'], expires_at: '2030-01-01T00:00:00.000Z' },
  },
};

/** Request examples; each is valid as it stands (a test executes them). */
export const CREATE_API_KEY_EXAMPLES: Record<string, BodyExample<CreateApiKeyDto>> = {
  newAccount: { summary: 'A key for a new account', value: { name: 'marketing' } },
};

const ID = { format: 'uuid', example: 'b2587ea3-9151-4197-b2c6-4df0a9cddaff' };
const ACCOUNT_ID = { format: 'uuid', description: 'The account the key acts for', example: '27bf3bcf-fae5-4500-9b0a-6bb2b0b00d4e' };
const PREFIX = { description: 'The first characters of the key, to recognise it', example: 'qr_live_7FkS' };
const CREATED_AT = { format: 'date-time', example: '2026-11-24T09:30:00.000Z' };
const SCOPES: ApiPropertyOptions = { type: [String], description: 'What the key may do (`*`: everything)', example: ['*'] };
const FOLDER_IDS: ApiPropertyOptions = {
  type: [String],
  format: 'uuid',
  nullable: true,
  description: 'Null: every folder; else only codes in these folders',
  example: null,
};
const EXPIRES_AT: ApiPropertyOptions = { type: String, format: 'date-time', nullable: true, description: 'Null: never expires', example: null };

const grantFields = (record: ApiKeyRecord) => ({
  scopes: record.scopes,
  folder_ids: record.folderIds,
  expires_at: record.expiresAt?.toISOString() ?? null,
});

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
  @ApiProperty(SCOPES) scopes: string[];
  @ApiProperty(FOLDER_IDS) folder_ids: string[] | null;
  @ApiProperty(EXPIRES_AT) expires_at: string | null;

  static from(record: ApiKeyRecord): ApiKeyView {
    return {
      id: record.id,
      name: record.name,
      prefix: record.prefix,
      account_id: record.accountId,
      created_at: record.createdAt.toISOString(),
      last_used_at: record.lastUsedAt?.toISOString() ?? null,
      revoked_at: record.revokedAt?.toISOString() ?? null,
      ...grantFields(record),
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
  @ApiProperty(SCOPES) scopes: string[];
  @ApiProperty(FOLDER_IDS) folder_ids: string[] | null;
  @ApiProperty(EXPIRES_AT) expires_at: string | null;

  static from(created: CreatedApiKey): CreatedApiKeyView {
    return {
      id: created.id,
      name: created.name,
      key: created.key,
      prefix: created.prefix,
      account_id: created.accountId,
      created_at: created.createdAt.toISOString(),
      ...grantFields(created),
    };
  }
}

export class CreatedApiKeyResponseView extends CreatedApiKeyView {
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
