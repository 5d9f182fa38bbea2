import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import type { FolderId } from '../../common/ids/resource-ids';
import { ResourceIdField } from '../../common/validation/resource-id.pipe';
import { QR_TYPES, type QrType } from '../../qrcodes/content/qr-types';
import { ScanAnalyticsQuery } from './scan-analytics.query';

/** Query of GET /api/v1/analytics: the window of /scans, narrowed to a folder or a code type. */
export class AccountAnalyticsQuery extends ScanAnalyticsQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only codes in this folder (one of yours: 404 otherwise)' })
  @IsOptional()
  @ResourceIdField()
  folder_id?: FolderId;

  @ApiPropertyOptional({ enum: QR_TYPES, description: 'Only codes of this type' })
  @IsOptional()
  @IsIn(QR_TYPES, { message: `type must be one of: ${QR_TYPES.join(', ')}` })
  type?: QrType;
}
