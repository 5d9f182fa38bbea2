import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsISO8601, IsObject, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { StyleDto } from '../../images/style';
import { CONTENT_DTO_BY_TYPE, QR_TYPES, QrType } from '../content';

export const CONTENT_SCHEMA_REFS = Object.values(CONTENT_DTO_BY_TYPE).map((dto) => ({ $ref: getSchemaPath(dto) }));

/**
 * Request body of a single create, and of each bulk item. The shape is checked here; `content`
 * and `style` are checked in depth by the content types and the style checker (QrCodeRules).
 */
export class CreateQrCodeDto {
  @ApiProperty({ enum: QR_TYPES, example: 'url' })
  @IsDefined() @IsIn(QR_TYPES as unknown as string[], { message: `type must be one of: ${QR_TYPES.join(', ')}` })
  type: QrType;

  @ApiProperty({ description: 'Content fields of the type', oneOf: CONTENT_SCHEMA_REFS, example: { url: 'https://example.com' } })
  @IsDefined() @IsObject({ message: 'content must be an object' })
  content: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: 100, example: 'Spring poster', description: 'Default "<type> QR Code"' })
  @IsOptional() @IsString() @MaxLength(100) @Matches(/\S/, { message: 'name must not be blank' })
  name?: string;

  @ApiPropertyOptional({ default: false, description: 'Dynamic codes get a short redirect link and count scans' })
  @IsOptional() @IsBoolean()
  is_dynamic?: boolean;

  @ApiPropertyOptional({ format: 'uuid', description: 'One of your folders' })
  @IsOptional() @IsUUID()
  folder_id?: string;

  @ApiPropertyOptional({ type: () => StyleDto })
  @IsOptional() @IsObject({ message: 'style must be an object' })
  style?: Record<string, unknown>;

  @ApiPropertyOptional({ format: 'date-time', description: 'Dynamic codes only: after this instant the link answers "expired"' })
  @IsOptional() @IsISO8601({ strict: true })
  expires_at?: string;
}
