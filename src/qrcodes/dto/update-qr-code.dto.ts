import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsISO8601, IsObject, IsString, IsUUID, Matches, MaxLength, ValidateIf } from 'class-validator';
import { StyleDto } from '../../images/style';
import { QR_STATUSES, SettableStatus } from '../qr-code-status';
import { CONTENT_SCHEMA_REFS } from './create-qr-code.dto';

/**
 * Present unless undefined: unlike IsOptional, null is validated (and rejected) by the rules that
 * follow. Only folder_id and expires_at give null a meaning ("remove"); a null name or status would
 * otherwise reach a NOT NULL column.
 */
const IsOptionalNotNull = () => ValidateIf((_, value) => value !== undefined);

/** Partial update: only the fields present change. */
export class UpdateQrCodeDto {
  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptionalNotNull() @IsString() @MaxLength(100) @Matches(/\S/, { message: 'name must not be blank' })
  name?: string;

  @ApiPropertyOptional({ description: "Content fields of the code's current type", oneOf: CONTENT_SCHEMA_REFS })
  @IsOptionalNotNull() @IsObject({ message: 'content must be an object' })
  content?: Record<string, unknown>;

  @ApiPropertyOptional({ type: () => StyleDto, description: 'Replaces the existing style entirely' })
  @IsOptionalNotNull() @IsObject({ message: 'style must be an object' })
  style?: Record<string, unknown>;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, description: 'A folder id moves the code; null removes it from its folder' })
  @ValidateIf((_, value) => value !== null && value !== undefined) @IsUUID()
  folder_id?: string | null;

  @ApiPropertyOptional({ description: 'Only true is accepted: upgrades a static code to dynamic' })
  @IsOptionalNotNull() @IsBoolean()
  is_dynamic?: boolean;

  @ApiPropertyOptional({ enum: QR_STATUSES, description: 'paused: a dynamic link stops redirecting (410) until active again' })
  @IsOptionalNotNull() @IsIn(QR_STATUSES as unknown as string[], { message: `status must be one of: ${QR_STATUSES.join(', ')}` })
  status?: SettableStatus;

  @ApiPropertyOptional({ format: 'date-time', nullable: true, description: 'Dynamic codes only; null removes the expiry' })
  @ValidateIf((_, value) => value !== null && value !== undefined) @IsISO8601({ strict: true })
  expires_at?: string | null;

  @ApiPropertyOptional({ description: 'The type cannot change; sending a different type is rejected' })
  @IsOptionalNotNull() @IsString()
  type?: string;
}
