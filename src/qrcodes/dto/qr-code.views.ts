import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { REQUEST_ID_PROPERTY as REQUEST_ID, PaginationView } from '../../common/openapi/common-views';
import { QR_TYPES } from '../content';
import { CONTENT_SCHEMA_REFS } from './create-qr-code.dto';
import { UTM_FIELDS } from '../../smart-links/settings/link-settings';
import { LinkRuleDto } from '../../smart-links/settings/link-settings.dto';
import { PREVIEW_FIELDS } from '../../smart-links/settings/link-preview';

const STATUSES = ['active', 'paused', 'expired'];
const ID = { format: 'uuid', example: '3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37' };
const CREATED_AT = { format: 'date-time', description: 'UTC, with milliseconds', example: '2026-11-24T09:30:00.000Z' };
const SHORT_CODE = { description: 'Dynamic codes only: the code of the short link', example: 'aZ3kP9qL' };
const DYNAMIC_URL = {
  format: 'uri',
  description: 'Dynamic codes only: {REDIRECT_URL}/r/<short_code>, or https://<hostname>/r/<short_code> on a domain; the URL the image encodes',
  example: 'https://qr.example.com/r/aZ3kP9qL',
};
const DOMAIN_ID = {
  type: String,
  format: 'uuid',
  description: 'Dynamic codes on a branded domain only: the domain its link is on (left out: the default redirect host)',
  example: '5b8e0c4d-2f1a-4e3b-9c7d-6a5f4e3d2c1b',
};
const IMAGE_URL = {
  format: 'uri',
  description: 'The SVG image (send the X-API-Key header)',
  example: 'https://api.example.com/api/v1/qrcodes/3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37/image',
};

const CONTENT_FIELDS = {
  description:
    'The content object as validated and stored (the schema of the type): absent fields and empty nested objects dropped, ' +
    'single-line values trimmed, a url in its normal form. Holds every field sent, a Wi-Fi password included',
  // anyOf: the schemas overlap (a phone number alone is also an sms); `type` says which one it is.
  anyOf: CONTENT_SCHEMA_REFS,
  example: { url: 'https://example.com/spring-sale?utm_source=qr' },
};

const TAGS = {
  type: [String] as [StringConstructor],
  description: "The code's tags, in the order given, each as the tag is named ([] when none)",
  example: ['spring', 'store-12'],
};

/** Response shapes, for the OpenAPI document (the service builds them in qr-code.representation.ts). */
export class QrCodeView {
  @ApiProperty(ID) id: string;
  @ApiProperty({ example: 'Spring poster' }) name: string;
  @ApiProperty({ enum: QR_TYPES, example: 'url' }) type: string;
  @ApiProperty({ description: 'The content as the string the code encodes', example: 'https://example.com/spring-sale?utm_source=qr' })
  content: string;
  @ApiProperty(CONTENT_FIELDS) content_fields: Record<string, unknown>;
  @ApiProperty({
    description: 'The style serialized as a JSON string ("{}" without a style)',
    example: '{"dotsOptions":{"type":"rounded","color":"#1a237e"}}',
  })
  style_config: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The folder of the code, or null', example: null }) folder_id:
    string | null;
  @ApiProperty(TAGS) tags: string[];
  @ApiProperty({ example: true }) is_dynamic: boolean;
  @ApiProperty({ enum: STATUSES, description: 'expired: a dynamic code past its expires_at', example: 'active' }) status: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Completed scans of the dynamic link, bots excluded', example: 42 }) scans: number;
  @ApiPropertyOptional(SHORT_CODE) short_code?: string;
  @ApiPropertyOptional(DYNAMIC_URL) dynamic_url?: string;
  @ApiPropertyOptional(DOMAIN_ID) domain_id?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Dynamic codes with an expiry only', example: '2099-12-31T23:59:59.000Z' })
  expires_at?: string;
  @ApiPropertyOptional({ type: [LinkRuleDto], description: 'Dynamic codes: the smart-link rules, in order ([] when none)' }) rules?: LinkRuleDto[];
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Dynamic codes: the scan limit, or null', example: null }) max_scans?:
    number | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Dynamic codes: where scans past the limit go', example: null }) fallback_url?:
    string | null;
  @ApiPropertyOptional({ description: 'Dynamic codes: whether scanners must enter a password', example: false }) has_password?: boolean;
  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    properties: Object.fromEntries(UTM_FIELDS.map((field) => [field, { type: 'string' }])),
    description: 'Dynamic codes: UTM parameters added to URL targets, or null',
    example: null,
  })
  utm?: Record<string, string> | null;
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: "Dynamic codes: how many days its scans are kept, or null (the deployment's retention)",
    example: 90,
  })
  scan_retention_days?: number | null;
  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    properties: Object.fromEntries(PREVIEW_FIELDS.map((field) => [field, { type: 'string' }])),
    description: 'Dynamic codes: what chat apps show for the short link (docs/sharing.md#link-previews), or null',
    example: null,
  })
  preview?: Record<string, string> | null;
  @ApiProperty(IMAGE_URL) image_url: string;
  @ApiProperty(CREATED_AT) created_at: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-24T10:15:00.000Z' }) updated_at: string;
}

export class QrCodeGetView extends QrCodeView {
  @ApiProperty(REQUEST_ID) request_id: string;
}

export class QrCodeBulkItemView {
  @ApiProperty(ID) id: string;
  @ApiProperty({ enum: QR_TYPES, example: 'url' }) type: string;
  @ApiProperty({ example: 'Spring poster' }) name: string;
  @ApiProperty({
    description: "The string the image encodes for a static code (a dynamic code's image encodes dynamic_url)",
    example: 'https://example.com/spring-sale?utm_source=qr',
  })
  content_string: string;
  @ApiProperty(CONTENT_FIELDS) content_fields: Record<string, unknown>;
  @ApiProperty(TAGS) tags: string[];
  @ApiProperty({ example: true }) is_dynamic: boolean;
  @ApiPropertyOptional(SHORT_CODE) short_code?: string;
  @ApiPropertyOptional(DYNAMIC_URL) dynamic_url?: string;
  @ApiPropertyOptional(DOMAIN_ID) domain_id?: string;
  @ApiProperty(IMAGE_URL) image_url: string;
  @ApiProperty(CREATED_AT) created_at: string;
}

export class QrCodeCreatedView extends QrCodeBulkItemView {
  @ApiProperty({ enum: STATUSES, description: 'active for a new code', example: 'active' }) status: string;
  @ApiProperty({ type: 'integer', minimum: 0, example: 0 }) scans: number;
  @ApiProperty(REQUEST_ID) request_id: string;
}

export class QrCodeListView {
  @ApiProperty({ type: [QrCodeView] }) data: QrCodeView[];
  @ApiProperty({ type: PaginationView }) pagination: PaginationView;
  @ApiProperty(REQUEST_ID) request_id: string;
}

export class QrCodeUpdatedView {
  @ApiProperty({ example: 'QR code updated' }) message: string;
  @ApiProperty({ type: QrCodeView, description: 'The code as it is after the update (the get representation)' }) qrcode: QrCodeView;
  @ApiProperty(REQUEST_ID) request_id: string;
}
