import { ResourceIdField } from '../../common/validation/resource-id.pipe';
import type { FolderId } from '../../common/ids/resource-ids';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { QR_TYPES, type QrType } from '../content';
import { QR_STATUSES, type QrStatus } from '../qr-code-status';
import { PageLimit, PageNumber } from '../../common/validation/page-query';

export const LIST_SORTS = ['newest', 'oldest', 'name-asc', 'name-desc'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

export class ListQrCodesQuery {
  @PageNumber()
  page: number = 1;

  @PageLimit(20)
  limit: number = 20;

  @ApiPropertyOptional({ enum: QR_TYPES })
  @IsOptional()
  @IsIn(QR_TYPES, { message: `type must be one of: ${QR_TYPES.join(', ')}` })
  type?: QrType;

  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'is_dynamic must be "true" or "false"' })
  is_dynamic?: 'true' | 'false';

  @ApiPropertyOptional({ description: 'Case-insensitive match in name and content', maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ enum: LIST_SORTS, default: 'newest' })
  @IsOptional()
  @IsIn(LIST_SORTS, { message: `sort must be one of: ${LIST_SORTS.join(', ')}` })
  sort: ListSort = 'newest';

  @ApiPropertyOptional({ enum: QR_STATUSES, description: 'Only codes with this status (expired: dynamic codes whose expires_at has passed)' })
  @IsOptional()
  @IsIn(QR_STATUSES, { message: `status must be one of: ${QR_STATUSES.join(', ')}` })
  status?: QrStatus;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only codes in this folder' })
  @IsOptional()
  @ResourceIdField()
  folder_id?: FolderId;
}
