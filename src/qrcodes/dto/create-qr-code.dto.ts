import { ResourceIdField } from '../../common/validation/resource-id.pipe';
import type { DomainId, FolderId } from '../../common/ids/resource-ids';
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsISO8601, IsObject, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { IsOptionalNotNull } from '../../common/validation/optional-not-null';
import { STYLE_RULE_DESCRIPTION, StyleDto } from './style.dto';
import { LinkSettingsDto } from '../../smart-links/settings/link-settings.dto';
import { CONTENT_DTO_BY_TYPE, QR_TYPES, QrType } from '../content';

/** The content schemas, one per type; the document registers them (ApiExtraModels on the QR code controller). */
export const CONTENT_DTOS = Object.values(CONTENT_DTO_BY_TYPE);
export const CONTENT_SCHEMA_REFS = CONTENT_DTOS.map((dto) => ({ $ref: getSchemaPath(dto) }));
/**
 * anyOf, not oneOf: the schemas overlap (a phone number alone is also a valid sms), and `type`
 * (outside `content`) is what chooses; the request examples show one body per type.
 */
const CONTENT_DESCRIPTION = `Content fields of the type: the schema named after \`type\` (${Object.entries(CONTENT_DTO_BY_TYPE)
  .map(([type, dto]) => `${type}: ${dto.name}`)
  .join(', ')}); fields of another type are refused`;

/** The two fields that put a dynamic code's link on a branded domain, under a chosen short code (docs/domains-and-tls.md). */
export const DOMAIN_ID_PROPERTY = {
  type: String,
  format: 'uuid',
  nullable: true,
  example: '5b8e0c4d-2f1a-4e3b-9c7d-6a5f4e3d2c1b',
  description: 'Dynamic codes only: one of your verified domains; dynamic_url becomes https://<hostname>/r/<short_code>',
} as const;
export const SHORT_CODE_PROPERTY = {
  type: String,
  minLength: 3,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]{3,64}$',
  example: 'spring',
  description:
    'Dynamic codes only: a chosen (vanity) short code, unique on its host (409 when taken), not a reserved word ' +
    '(api, docs, health, metrics, internal, admin, …); left out: 8 random base62 characters',
} as const;

/** A code's tags (docs/tags-and-bulk-edits.md): checked by the tag name rules (QrCodeRules), so an error names `tags[3]`. */
export const TAGS_PROPERTY = {
  type: [String] as [StringConstructor],
  maxItems: 20,
  example: ['spring', 'store-12'],
  description:
    'Tag names, at most 20, each 1–50 characters (no control characters, "|" or ","), compared without case: a tag of the ' +
    'account named in another case is that tag, a new name makes a new tag. A name repeated is kept once',
};

/**
 * Request body of a single create, and of each bulk item. The shape is checked here; `content`
 * and `style` are checked in depth by the content types and the style checker (QrCodeRules).
 */
export class CreateQrCodeDto extends LinkSettingsDto {
  @ApiProperty({ enum: QR_TYPES, example: 'url' })
  @IsDefined()
  @IsIn(QR_TYPES, { message: `type must be one of: ${QR_TYPES.join(', ')}` })
  type: QrType;

  @ApiProperty({ description: CONTENT_DESCRIPTION, anyOf: CONTENT_SCHEMA_REFS })
  @IsDefined()
  @IsObject({ message: 'content must be an object' })
  content: Record<string, unknown>;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100, pattern: '\\S', example: 'Spring poster', description: 'Not blank; default "<type> QR Code"' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name?: string;

  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Dynamic codes get a short redirect link and count scans' })
  @IsOptionalNotNull()
  @IsBoolean()
  is_dynamic?: boolean;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'One of your folders; null (as left out): in no folder' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @ResourceIdField()
  folder_id?: FolderId | null;

  @ApiPropertyOptional({ ...DOMAIN_ID_PROPERTY, description: `${DOMAIN_ID_PROPERTY.description}; null (as left out): the default host` })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @ResourceIdField()
  domain_id?: DomainId | null;

  @ApiPropertyOptional(SHORT_CODE_PROPERTY)
  @IsOptionalNotNull()
  @IsString()
  short_code?: string;

  @ApiPropertyOptional({ ...TAGS_PROPERTY, description: `${TAGS_PROPERTY.description}; left out: none` })
  @IsOptionalNotNull()
  tags?: unknown;

  @ApiPropertyOptional({ type: () => StyleDto, description: STYLE_RULE_DESCRIPTION })
  @IsOptionalNotNull()
  @IsObject({ message: 'style must be an object' })
  style?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Dynamic codes only, in the future: after this instant the link answers "expired" (410); null (as left out): no expiry',
  })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsISO8601({ strict: true })
  expires_at?: string | null;
}
