import type { AttemptRow, DeliveryRecord, WebhookRecord } from './webhooks.repository';
import { ALL_EVENTS } from './webhook-event-types';

/** The API's views of endpoints, deliveries and attempts (docs/webhooks.md). */

export const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** `*` stands for every event: listed with others, the others add nothing. */
export const normalizedEvents = (events: string[]) => (events.includes(ALL_EVENTS) ? [ALL_EVENTS] : events);

export function toView(webhook: WebhookRecord) {
  return {
    id: webhook.id,
    url: webhook.url,
    description: webhook.description,
    events: webhook.events,
    folder_id: webhook.folderId,
    qrcode_ids: webhook.qrcodeIds,
    enabled: webhook.enabled,
    disabled_reason: webhook.disabledReason,
    previous_secret_expires_at: iso(webhook.previousSecretExpiresAt),
    created_at: webhook.createdAt.toISOString(),
    updated_at: webhook.updatedAt.toISOString(),
  };
}

/** The endpoint's fields a client sets or sees change (not its timestamps), in the API's names. */
export function audited(webhook: WebhookRecord): Record<string, unknown> {
  const { id: _id, created_at: _created, updated_at: _updated, ...fields } = toView(webhook);
  return fields;
}

export function toDeliveryView(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    webhook_id: delivery.endpoint_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    status: delivery.status,
    attempt_count: delivery.attempt_count,
    next_attempt_at: delivery.status === 'pending' ? iso(delivery.next_attempt_at) : null,
    last_attempt_at: iso(delivery.last_attempt_at),
    last_status_code: delivery.last_status_code,
    last_error: delivery.last_error,
    created_at: delivery.created_at.toISOString(),
  };
}

export function toAttemptView(attempt: AttemptRow) {
  return {
    attempted_at: attempt.attempted_at.toISOString(),
    status_code: attempt.status_code,
    error: attempt.error,
    duration_ms: attempt.duration_ms,
    response_snippet: attempt.response_snippet,
    outcome: attempt.outcome,
  };
}
