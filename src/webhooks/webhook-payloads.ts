import type { ScanRow } from '../scans/scan-batch';
import type { WebhookEventType } from './webhook-event-types';

/** A qrcode.scanned event carries at most this many scans (about 250 KB; docs/webhooks.md says why). */
export const MAX_SCANS_PER_EVENT = 1000;

/** The JSON body of an event as it is posted and signed: Standard Webhooks' `{type, timestamp, data}`. */
export function eventBody(type: WebhookEventType, occurredAt: Date, data: object): string {
  return JSON.stringify({ type, timestamp: occurredAt.toISOString(), data });
}

/**
 * The bodies of the qrcode.scanned events of one code's scans stored together: the scans in
 * order, at most MAX_SCANS_PER_EVENT per event. A code scanned now and then gets one scan per
 * event; a busy one gets the scans stored in one go (the scan buffer stores every 100 ms)
 * together, so a receiver always reads `data.scans` as a list. Each scan: its id, time, device,
 * OS, browser, referrer host, country and city (null when unknown) and visitor hash; never the IP
 * (it is not stored). Written as JSON text directly, every string through JSON.stringify: busy codes
 * send thousands of scans a second, and an object per scan costs more than the text.
 */
export function scannedEventBodies(code: { id: string; shortCode: string | null }, rows: readonly ScanRow[], occurredAt: Date): string[] {
  // Devices, systems, browsers and referrers repeat (a poster's code is scanned from the same page or app): each is written once per call.
  const written = new Map<string, string>();
  const repeated = (value: string): string => {
    let text = written.get(value);
    if (text === undefined) written.set(value, (text = json(value)));
    return text;
  };
  const place = (value: string | null): string => (value === null ? 'null' : repeated(value));
  const hosts = new Map<string, string>();
  const hostJson = (referrer: string | null): string => {
    if (!referrer) return 'null';
    let host = hosts.get(referrer);
    if (host === undefined) hosts.set(referrer, (host = json(referrerHost(referrer))));
    return host;
  };
  const head =
    `{"type":"qrcode.scanned","timestamp":${json(occurredAt.toISOString())},` +
    `"data":{"qrcode":{"id":${json(code.id)},"short_code":${json(code.shortCode)}},"scans":[`;
  const bodies: string[] = [];
  for (let start = 0; start < rows.length; start += MAX_SCANS_PER_EVENT) {
    // Joined once, not appended to: the body waits for its insert as one flat string, not a tree of pieces.
    const parts = [head];
    const end = Math.min(rows.length, start + MAX_SCANS_PER_EVENT);
    for (let i = start; i < end; i++) {
      const row = rows[i];
      parts.push(
        `${i > start ? ',' : ''}{"id":${plain(row.eventId)},"scanned_at":${plain(row.scannedAt)},` +
          `"device":${repeated(row.device)},"os":${repeated(row.os)},"browser":${repeated(row.browser)},` +
          `"referrer_host":${hostJson(row.referrer)},"country":${place(row.country)},"city":${place(row.city)},` +
          `"visitor_hash":${plain(row.visitorHash)}}`,
      );
    }
    parts.push(']}}');
    bodies.push(parts.join(''));
  }
  return bodies;
}

const json = (value: string | null): string => JSON.stringify(value);

/** Ids, timestamps and hashes, which need no escaping: quoted as they are, anything else through JSON.stringify. */
const PLAIN = /^[\w:.+-]*$/;
const plain = (value: string): string => (PLAIN.test(value) ? `"${value}"` : json(value));

function referrerHost(referrer: string | null): string | null {
  if (!referrer) return null;
  try {
    return new URL(referrer).hostname || null;
  } catch {
    return null;
  }
}
