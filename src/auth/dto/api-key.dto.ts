import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import type { ApiKeyRecord } from '../api-keys.repository';
import type { CreatedApiKey } from '../api-keys.service';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'ci pipeline', maxLength: 100 })
  @IsString() @IsNotEmpty() @MaxLength(100)
  name: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Existing account to add the key to (rotation); omitted = a new account' })
  @IsOptional() @IsUUID()
  account_id?: string;
}

export class ApiKeyView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'qr_live_AbCd' }) prefix: string;
  @ApiProperty({ format: 'uuid' }) account_id: string;
  @ApiProperty() created_at: string;
  @ApiProperty({ nullable: true, type: String }) last_used_at: string | null;
  @ApiProperty({ nullable: true, type: String }) revoked_at: string | null;

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

export class CreatedApiKeyView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The API key. Shown only in this response; store it now.' }) key: string;
  @ApiProperty() prefix: string;
  @ApiProperty({ format: 'uuid' }) account_id: string;
  @ApiProperty() created_at: string;

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
