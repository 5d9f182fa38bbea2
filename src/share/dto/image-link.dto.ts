import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsISO8601, IsObject, IsOptional, Max, Min } from 'class-validator';
import { REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import type { BodyExample } from '../../common/openapi/json-body';
import { MAX_SIZE, MIN_SIZE } from '../../rendering/image-size-range';

export const IMAGE_LINK_FORMATS = ['svg', 'png'] as const;
export type ImageLinkFormat = (typeof IMAGE_LINK_FORMATS)[number];
export const DEFAULT_IMAGE_LINK_SIZE = 300;

export class CreateImageLinkDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'When the URL stops serving (410 from then on). Default: never.' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'expires_at must be an ISO 8601 date-time' })
  expires_at?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_SIZE,
    maximum: MAX_SIZE,
    default: DEFAULT_IMAGE_LINK_SIZE,
    description: 'Width and height, pixels',
  })
  @IsOptional()
  @IsInt()
  @Min(MIN_SIZE)
  @Max(MAX_SIZE)
  size?: number;

  @ApiPropertyOptional({ enum: IMAGE_LINK_FORMATS, default: 'svg' })
  @IsOptional()
  @IsIn(IMAGE_LINK_FORMATS, { message: `format must be one of: ${IMAGE_LINK_FORMATS.join(', ')}` })
  format?: ImageLinkFormat;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "Style fields laid over the code's own style for this URL only (the qr-code-styling schema), checked like a code's style",
    example: { dotsOptions: { color: '#0b3d91' } },
  })
  @IsOptional()
  @IsObject({ message: 'style must be an object' })
  style?: Record<string, unknown>;
}

export const CREATE_IMAGE_LINK_EXAMPLES: Record<string, BodyExample<CreateImageLinkDto>> = {
  svg: { summary: 'The code as it is, SVG at 300 px', value: {} },
  png: { summary: 'A 600 px PNG in the brand colour', value: { format: 'png', size: 600, style: { dotsOptions: { color: '#0b3d91' } } } },
};

const TIMESTAMP = { format: 'date-time', example: '2026-11-24T09:30:00.000Z' };

export class ImageLinkView {
  @ApiProperty({ format: 'uuid', description: 'Revoke with DELETE /api/v1/image-links/{id}' }) id: string;
  @ApiProperty({ description: 'The public image URL, for <img src>', example: 'https://qr.example.com/i/Cw0...' }) url: string;
  @ApiProperty({ format: 'uuid' }) qr_code_id: string;
  @ApiProperty({ type: 'integer', example: 300 }) size: number;
  @ApiProperty({ enum: IMAGE_LINK_FORMATS }) format: string;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) style: Record<string, unknown> | null;
  @ApiProperty({ ...TIMESTAMP, nullable: true, type: String }) expires_at: string | null;
  @ApiProperty({ ...TIMESTAMP, nullable: true, type: String }) revoked_at: string | null;
  @ApiProperty(TIMESTAMP) created_at: string;
}

export class ImageLinkGetView extends ImageLinkView {
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class ImageLinkListView {
  @ApiProperty({ type: [ImageLinkView] }) data: ImageLinkView[];
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class RotatedImageLinksView {
  @ApiProperty({ type: 'integer', description: 'Links revoked by the rotation', example: 3 }) revoked: number;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
