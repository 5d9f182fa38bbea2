import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { QR_TYPES, QrType } from '../content';

export const LIST_SORTS = ['newest', 'oldest', 'name-asc', 'name-desc'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

export class ListQrCodesQuery {
  @ApiPropertyOptional({ default: 1, minimum: 1 })
  @IsOptional() @Type(() => Number) @IsInt({ message: 'page must be an integer' }) @Min(1) @Max(1_000_000)
  page: number = 1;

  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 100 })
  @IsOptional() @Type(() => Number) @IsInt({ message: 'limit must be an integer' }) @Min(1) @Max(100)
  limit: number = 20;

  @ApiPropertyOptional({ enum: QR_TYPES })
  @IsOptional() @IsIn(QR_TYPES as unknown as string[], { message: `type must be one of: ${QR_TYPES.join(', ')}` })
  type?: QrType;

  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional() @IsIn(['true', 'false'], { message: 'is_dynamic must be "true" or "false"' })
  is_dynamic?: 'true' | 'false';

  @ApiPropertyOptional({ description: 'Case-insensitive match in name and content', maxLength: 200 })
  @IsOptional() @IsString() @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ enum: LIST_SORTS, default: 'newest' })
  @IsOptional() @IsIn(LIST_SORTS as unknown as string[], { message: `sort must be one of: ${LIST_SORTS.join(', ')}` })
  sort: ListSort = 'newest';

  @ApiPropertyOptional({ format: 'uuid', description: 'Only codes in this folder' })
  @IsOptional() @IsUUID()
  folder_id?: string;
}
