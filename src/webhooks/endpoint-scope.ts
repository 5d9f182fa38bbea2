import { subscribes, type WebhookEventType } from './webhook-event-types';

/** What an endpoint listens to: event types, and optionally a folder or a list of codes (neither: every code). */
export interface EndpointScope {
  events: readonly string[];
  folderId: string | null;
  qrcodeIds: readonly string[];
}

/** Whether an event of `type` about `code` goes to the endpoint; the code's folder is the one it is in at the time of the event. */
export function wants(endpoint: EndpointScope, type: WebhookEventType, code: { id: string; folderId: string | null }): boolean {
  if (!subscribes(endpoint.events, type)) return false;
  if (endpoint.qrcodeIds.length > 0) return endpoint.qrcodeIds.includes(code.id);
  if (endpoint.folderId) return endpoint.folderId === code.folderId;
  return true;
}
