import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { QR_TYPES } from '../content';

/** Response shapes, for the OpenAPI document (the service builds them in qr-code.representation.ts). */
export class QrCodeView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: QR_TYPES }) type: string;
  @ApiProperty({ description: 'The encoded content string' }) content: string;
  @ApiProperty({ description: 'The style serialized as a JSON string', example: '{}' }) style_config: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) folder_id: string | null;
  @ApiProperty() is_dynamic: boolean;
  @ApiProperty({ enum: ['active', 'paused', 'expired'] }) status: string;
  @ApiProperty() scans: number;
  @ApiPropertyOptional({ description: 'Dynamic codes only' }) short_code?: string;
  @ApiPropertyOptional({ description: 'Dynamic codes only: {redirect_url}/r/<short_code>' }) dynamic_url?: string;
  @ApiPropertyOptional({ format: 'date-time' }) expires_at?: string;
  @ApiProperty() image_url: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class QrCodeGetView extends QrCodeView {
  @ApiProperty() request_id: string;
}

export class QrCodeBulkItemView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: QR_TYPES }) type: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The string the image encodes for a static code' }) content_string: string;
  @ApiProperty() is_dynamic: boolean;
  @ApiPropertyOptional() short_code?: string;
  @ApiPropertyOptional() dynamic_url?: string;
  @ApiProperty() image_url: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class QrCodeCreatedView extends QrCodeBulkItemView {
  @ApiProperty({ example: 'active' }) status: string;
  @ApiProperty({ example: 0 }) scans: number;
  @ApiProperty() request_id: string;
}

export class PaginationView {
  @ApiProperty() page: number;
  @ApiProperty() limit: number;
  @ApiProperty({ description: 'Number of matching codes' }) total: number;
  @ApiProperty() total_pages: number;
}

export class QrCodeListView {
  @ApiProperty({ type: [QrCodeView] }) data: QrCodeView[];
  @ApiProperty() pagination: PaginationView;
  @ApiProperty() request_id: string;
}

export class MessageView {
  @ApiProperty() message: string;
  @ApiProperty() request_id: string;
}
