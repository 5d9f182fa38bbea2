import { ResourceIdField } from '../../common/validation/resource-id.pipe';
import { IsOptionalNotNull } from '../../common/validation/optional-not-null';
import type { DomainId, FolderId } from '../../common/ids/resource-ids';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsISO8601, IsObject, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { STYLE_RULE_DESCRIPTION, StyleDto } from './style.dto';
import { LinkSettingsDto } from '../../smart-links/settings/link-settings.dto';
import { SETTABLE_STATUSES, type SettableStatus } from '../qr-code-status';
import { QR_TYPES } from '../content';
import { CONTENT_SCHEMA_REFS, DOMAIN_ID_PROPERTY, SHORT_CODE_PROPERTY, TAGS_PROPERTY } from './create-qr-code.dto';

/** Partial update: only the fields present change. */
export class UpdateQrCodeDto extends LinkSettingsDto {
  @ApiPropertyOptional({ type: String, minLength: 1, maxLength: 100, pattern: '\\S', description: 'Not blank' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name?: string;

  @ApiPropertyOptional({
    description: "Content fields of the code's current type (the schema named after it; see create)",
    anyOf: CONTENT_SCHEMA_REFS,
  })
  @IsOptionalNotNull()
  @IsObject({ message: 'content must be an object' })
  content?: Record<string, unknown>;

  @ApiPropertyOptional({ type: () => StyleDto, description: `Replaces the existing style entirely. ${STYLE_RULE_DESCRIPTION}` })
  @IsOptionalNotNull()
  @IsObject({ message: 'style must be an object' })
  style?: Record<string, unknown>;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'A folder id moves the code; null removes it from its folder' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @ResourceIdField()
  folder_id?: FolderId | null;

  @ApiPropertyOptional({ ...TAGS_PROPERTY, description: `Replaces the code's tags ([] removes them all). ${TAGS_PROPERTY.description}` })
  @IsOptionalNotNull()
  tags?: unknown;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'Only true is accepted: upgrades a static code to dynamic (a dynamic code cannot become static)',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  is_dynamic?: boolean;

  @ApiPropertyOptional({
    enum: SETTABLE_STATUSES,
    description: 'Dynamic codes only: paused stops the link redirecting (410) until active again; on a static code status is refused',
  })
  @IsOptionalNotNull()
  @IsIn(SETTABLE_STATUSES, { message: `status must be one of: ${SETTABLE_STATUSES.join(', ')}` })
  status?: SettableStatus;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Dynamic codes only, in the future; null removes the expiry',
  })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsISO8601({ strict: true })
  expires_at?: string | null;

  @ApiPropertyOptional({
    ...DOMAIN_ID_PROPERTY,
    description: `${DOMAIN_ID_PROPERTY.description}; null moves the link back to the default host. A change of domain changes the printed code`,
  })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @ResourceIdField()
  domain_id?: DomainId | null;

  @ApiPropertyOptional({
    ...SHORT_CODE_PROPERTY,
    description: `Only with is_dynamic: true on a static code (the upgrade). ${SHORT_CODE_PROPERTY.description}`,
  })
  @IsOptionalNotNull()
  @IsString()
  short_code?: string;

  @ApiPropertyOptional({ enum: QR_TYPES, description: "The type cannot change: only the code's own type is accepted" })
  @IsOptionalNotNull()
  @IsString()
  type?: string;
}
