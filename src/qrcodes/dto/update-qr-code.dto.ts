import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsISO8601, IsObject, IsOptional, IsString, IsUUID, MaxLength, ValidateIf } from 'class-validator';
import { StyleDto } from '../../images/style';
import { QR_STATUSES, SettableStatus } from '../qr-code-status';
import { CONTENT_SCHEMA_REFS } from './create-qr-code.dto';

/** Partial update: only the fields present change. */
export class UpdateQrCodeDto {
  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional() @IsString() @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ description: "Content fields of the code's current type", oneOf: CONTENT_SCHEMA_REFS })
  @IsOptional() @IsObject({ message: 'content must be an object' })
  content?: Record<string, unknown>;

  @ApiPropertyOptional({ type: () => StyleDto, description: 'Replaces the existing style entirely' })
  @IsOptional() @IsObject({ message: 'style must be an object' })
  style?: Record<string, unknown>;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, description: 'A folder id moves the code; null removes it from its folder' })
  @ValidateIf((_, value) => value !== null && value !== undefined) @IsUUID()
  folder_id?: string | null;

  @ApiPropertyOptional({ description: 'Only true is accepted: upgrades a static code to dynamic' })
  @IsOptional() @IsBoolean()
  is_dynamic?: boolean;

  @ApiPropertyOptional({ enum: QR_STATUSES, description: 'paused: a dynamic link stops redirecting (410) until active again' })
  @IsOptional() @IsIn(QR_STATUSES as unknown as string[])
  status?: SettableStatus;

  @ApiPropertyOptional({ format: 'date-time', nullable: true, description: 'Dynamic codes only; null removes the expiry' })
  @ValidateIf((_, value) => value !== null && value !== undefined) @IsISO8601({ strict: true })
  expires_at?: string | null;

  @ApiPropertyOptional({ description: 'The type cannot change; sending a different type is rejected' })
  @IsOptional() @IsString()
  type?: string;
}
