import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import type { FolderId, QrCodeId } from '../../common/ids/resource-ids';
import { PaginationView, REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import type { BodyExample } from '../../common/openapi/json-body';
import { IsOptionalNotNull } from '../../common/validation/optional-not-null';
import { ResourceIdField } from '../../common/validation/resource-id.pipe';
import { ALL_EVENTS, EVENT_TYPES, SUBSCRIBABLE_EVENTS } from '../webhook-event-types';
import { MAX_URL_LENGTH } from '../webhook-url';
import { PageLimit, PageNumber } from '../../common/validation/page-query';

export const MAX_SCOPED_CODES = 100;
const EVENT_CHOICES = [...SUBSCRIBABLE_EVENTS, ALL_EVENTS];
const eventsMessage = `each event must be one of: ${EVENT_CHOICES.join(', ')}`;
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateWebhookDto {
  @ApiProperty({
    example: 'https://example.com/webhooks/qr',
    maxLength: MAX_URL_LENGTH,
    description: 'https (http only when the server sets WEBHOOK_ALLOW_HTTP=1)',
  })
  @Transform(trim)
  @IsString({ message: 'url must be a string' })
  @MaxLength(MAX_URL_LENGTH)
  url: string;

  @ApiProperty({
    enum: EVENT_CHOICES,
    isArray: true,
    minItems: 1,
    maxItems: EVENT_CHOICES.length,
    uniqueItems: true,
    example: ['qrcode.scanned', 'qrcode.updated'],
    description: 'Events to receive; `*` is every event',
  })
  @IsArray({ message: 'events must be an array' })
  @ArrayMinSize(1, { message: 'events must name at least one event' })
  @ArrayMaxSize(EVENT_CHOICES.length)
  @ArrayUnique({ message: 'events must not repeat an event' })
  @IsIn(EVENT_CHOICES, { each: true, message: eventsMessage })
  events: string[];

  @ApiPropertyOptional({ example: 'Scans into the CRM', maxLength: 500, default: '' })
  @IsOptionalNotNull()
  @IsString({ message: 'description must be a string' })
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptionalNotNull()
  @IsBoolean({ message: 'enabled must be a boolean' })
  enabled?: boolean;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'Only events of codes in this folder of yours' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @ResourceIdField()
  folder_id?: FolderId | null;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: MAX_SCOPED_CODES,
    description: 'Only events of these codes of yours (empty: every code)',
  })
  @IsOptionalNotNull()
  @IsArray({ message: 'qrcode_ids must be an array' })
  @ArrayMaxSize(MAX_SCOPED_CODES)
  @ResourceIdField({ each: true })
  qrcode_ids?: QrCodeId[];
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({ example: 'https://example.com/webhooks/qr', maxLength: MAX_URL_LENGTH })
  @IsOptionalNotNull()
  @Transform(trim)
  @IsString({ message: 'url must be a string' })
  @MaxLength(MAX_URL_LENGTH)
  url?: string;

  @ApiPropertyOptional({ enum: EVENT_CHOICES, isArray: true, minItems: 1, maxItems: EVENT_CHOICES.length, uniqueItems: true, example: ['*'] })
  @IsOptionalNotNull()
  @IsArray({ message: 'events must be an array' })
  @ArrayMinSize(1, { message: 'events must name at least one event' })
  @ArrayMaxSize(EVENT_CHOICES.length)
  @ArrayUnique({ message: 'events must not repeat an event' })
  @IsIn(EVENT_CHOICES, { each: true, message: eventsMessage })
  events?: string[];

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptionalNotNull()
  @IsString({ message: 'description must be a string' })
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ description: 'true re-enables a disabled endpoint (clearing disabled_reason); false pauses deliveries' })
  @IsOptionalNotNull()
  @IsBoolean({ message: 'enabled must be a boolean' })
  enabled?: boolean;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'null: no folder scope' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @ResourceIdField()
  folder_id?: FolderId | null;

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_SCOPED_CODES, description: 'Empty: no code scope' })
  @IsOptionalNotNull()
  @IsArray({ message: 'qrcode_ids must be an array' })
  @ArrayMaxSize(MAX_SCOPED_CODES)
  @ResourceIdField({ each: true })
  qrcode_ids?: QrCodeId[];
}

export class WebhookView {
  @ApiProperty({ format: 'uuid', example: '3b7c1f1e-2a4d-4c55-9a0e-1f6b8e7d9c21' }) id: string;
  @ApiProperty({ example: 'https://example.com/webhooks/qr' }) url: string;
  @ApiProperty({ example: 'Scans into the CRM' }) description: string;
  @ApiProperty({ enum: EVENT_CHOICES, isArray: true, example: ['qrcode.scanned'] }) events: string[];
  @ApiProperty({ format: 'uuid', nullable: true, type: String, example: null }) folder_id: string | null;
  @ApiProperty({ type: [String], format: 'uuid', example: [] }) qrcode_ids: string[];
  @ApiProperty({ example: true }) enabled: boolean;
  @ApiProperty({
    nullable: true,
    type: String,
    example: null,
    description: 'Why the endpoint is disabled (after 5 days of failed deliveries, or by you)',
  })
  disabled_reason: string | null;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    example: null,
    description: 'After a rotation, the previous secret also signs until this time',
  })
  previous_secret_expires_at: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-11-25T09:00:00.000Z' }) created_at: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-25T09:00:00.000Z' }) updated_at: string;
}

/** An endpoint answered on its own (list items carry no request id). */
export class WebhookGetView extends WebhookView {
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class WebhookWithSecretView extends WebhookGetView {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw8bBnGQ+uIWo=', description: 'The signing secret: shown only in this response' })
  secret: string;
}

export class WebhookListView {
  @ApiProperty({ type: [WebhookView] }) data: WebhookView[];
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class DeliveriesQuery {
  @PageNumber()
  page: number = 1;

  @PageLimit(20)
  limit: number = 20;

  @ApiPropertyOptional({ enum: ['pending', 'succeeded', 'failed'] })
  @IsOptional()
  @IsIn(['pending', 'succeeded', 'failed'], { message: 'status must be one of: pending, succeeded, failed' })
  status?: 'pending' | 'succeeded' | 'failed';

  @ApiPropertyOptional({ enum: EVENT_TYPES })
  @IsOptional()
  @IsIn(EVENT_TYPES, { message: `event_type must be one of: ${EVENT_TYPES.join(', ')}` })
  event_type?: string;
}

export class ReplayQuery {
  @ApiProperty({ format: 'date-time', example: '2026-11-24T00:00:00.000Z', description: 'Start of the window (inclusive), an ISO 8601 time' })
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time' })
  from: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-25T00:00:00.000Z', description: 'End of the window (exclusive); now when left out' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time' })
  to?: string;
}

export class DeliveryView {
  @ApiProperty({ format: 'uuid', example: '0c2f3a6e-8d1b-4f4e-9a57-2b6c8d0e1f3a' }) id: string;
  @ApiProperty({ format: 'uuid', example: '3b7c1f1e-2a4d-4c55-9a0e-1f6b8e7d9c21' }) webhook_id: string;
  @ApiProperty({
    format: 'uuid',
    example: '9d8e7f6a-5b4c-4d3e-8f2a-1b0c9d8e7f6a',
    description: 'The event, and the `webhook-id` header of every attempt',
  })
  event_id: string;
  @ApiProperty({ enum: EVENT_TYPES, example: 'qrcode.scanned' }) event_type: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'], example: 'succeeded' }) status: string;
  @ApiProperty({ example: 1, description: 'Attempts so far' }) attempt_count: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, example: null }) next_attempt_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, example: '2026-11-25T09:00:01.000Z' }) last_attempt_at: string | null;
  @ApiProperty({ nullable: true, type: Number, example: 200 }) last_status_code: number | null;
  @ApiProperty({ nullable: true, type: String, example: null }) last_error: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-11-25T09:00:00.000Z' }) created_at: string;
}

/** A delivery answered on its own: just queued by a test, redelivery. */
export class QueuedDeliveryView extends DeliveryView {
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class AttemptView {
  @ApiProperty({ format: 'date-time', example: '2026-11-25T09:00:01.000Z' }) attempted_at: string;
  @ApiProperty({ nullable: true, type: Number, example: 500, description: 'null when no response came' }) status_code: number | null;
  @ApiProperty({ nullable: true, type: String, example: null }) error: string | null;
  @ApiProperty({ example: 42 }) duration_ms: number;
  @ApiProperty({ nullable: true, type: String, maxLength: 1024, example: '{"ok":false}', description: 'The first 1 KB of the response body' })
  response_snippet: string | null;
  @ApiProperty({ enum: ['succeeded', 'retrying', 'failed'], example: 'retrying' }) outcome: string;
}

export class DeliveryDetailView extends DeliveryView {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The body posted: {type, timestamp, data}',
    example: { type: 'webhook.test', timestamp: '2026-11-25T09:00:00.000Z', data: {} },
  })
  payload: Record<string, unknown>;
  @ApiProperty({ type: [AttemptView] }) attempts: AttemptView[];
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class DeliveryListView {
  @ApiProperty({ type: [DeliveryView] }) data: DeliveryView[];
  @ApiProperty({ type: PaginationView }) pagination: PaginationView;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class ReplayView {
  @ApiProperty({ example: 42, description: 'Deliveries queued again' }) queued: number;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    example: null,
    description: 'More than the cap matched: call again with this as `from`',
  })
  next_from: string | null;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

/** Request examples: each valid as it stands (a test executes every one against a fresh account). */
export const CREATE_WEBHOOK_EXAMPLES: Record<string, BodyExample<CreateWebhookDto>> = {
  scans: {
    summary: 'Scans and changes of every code, to your HTTPS endpoint',
    value: { url: 'https://example.com/webhooks/qr', events: ['qrcode.scanned', 'qrcode.updated'], description: 'Scans into the CRM' },
  },
  everything: {
    summary: 'Every event (`*`), created paused',
    value: { url: 'https://example.com/webhooks/audit', events: ['*'], description: 'Audit log', enabled: false },
  },
};

export const UPDATE_WEBHOOK_EXAMPLES: Record<string, BodyExample<UpdateWebhookDto>> = {
  events: { summary: 'Receive every event', value: { events: ['*'] } },
  resume: {
    summary: 'Resume deliveries to an endpoint that was disabled (enabled: false pauses them)',
    value: { enabled: true, description: 'Scans into the CRM' },
  },
};
