import { ResourceIdField } from '../../common/validation/resource-id.pipe';
import type { FolderId } from '../../common/ids/resource-ids';
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsISO8601, IsObject, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { IsOptionalNotNull } from '../../common/validation/optional-not-null';
import { STYLE_RULE_DESCRIPTION, StyleDto } from './style.dto';
import { LinkSettingsDto } from './link-settings.dto';
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
