/** The events an endpoint can subscribe to ('*': all of them, including any added later). */
export const SUBSCRIBABLE_EVENTS = [
  'qrcode.created',
  'qrcode.updated',
  'qrcode.deleted',
  'qrcode.scanned',
  'domain.verified',
  'domain.failing',
  'gs1.item.created',
  'gs1.item.updated',
  'gs1.item.deleted',
] as const;
export type SubscribableEvent = (typeof SUBSCRIBABLE_EVENTS)[number];
export const ALL_EVENTS = '*';
/** Sent only by POST /api/v1/webhooks/:id/test, to that endpoint, whatever it subscribes to. */
export const TEST_EVENT = 'webhook.test';
export type WebhookEventType = SubscribableEvent | typeof TEST_EVENT;
export const EVENT_TYPES: readonly WebhookEventType[] = [...SUBSCRIBABLE_EVENTS, TEST_EVENT];

export const subscribes = (events: readonly string[], type: WebhookEventType): boolean => events.includes(ALL_EVENTS) || events.includes(type);
