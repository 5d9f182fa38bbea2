import type { ScanRow } from '../redirect/scans/scan-batch';
import type { WebhookEventType } from './webhook-event-types';

/** A qrcode.scanned event carries at most this many scans (about 250 KB; docs/webhooks.md says why). */
export const MAX_SCANS_PER_EVENT = 1000;

/** The JSON body of an event as it is posted and signed: Standard Webhooks' `{type, timestamp, data}`. */
export function eventBody(type: WebhookEventType, occurredAt: Date, data: object): string {
  return JSON.stringify({ type, timestamp: occurredAt.toISOString(), data });
}

/** One scan in a qrcode.scanned event: never the IP (it is not stored), and no country (not recorded: null). */
export function scanData(row: ScanRow) {
  return {
    id: row.eventId,
    scanned_at: row.scannedAt,
    device: row.device,
    os: row.os,
    browser: row.browser,
    referrer_host: referrerHost(row.referrer),
    country: null,
    visitor_hash: row.visitorHash,
  };
}

function referrerHost(referrer: string | null): string | null {
  if (!referrer) return null;
  try {
    return new URL(referrer).hostname || null;
  } catch {
    return null;
  }
}

/**
 * The qrcode.scanned events of one code's scans stored together: the scans in order, at most
 * MAX_SCANS_PER_EVENT per event. A code scanned now and then gets one scan per event; a busy one
 * gets the scans stored in one go (the scan buffer stores every 100 ms) together, so a receiver
 * always reads `data.scans` as a list.
 */
export function scannedEventData(code: { id: string; shortCode: string | null }, rows: readonly ScanRow[]): object[] {
  const events: object[] = [];
  for (let start = 0; start < rows.length; start += MAX_SCANS_PER_EVENT) {
    events.push({ qrcode: { id: code.id, short_code: code.shortCode }, scans: rows.slice(start, start + MAX_SCANS_PER_EVENT).map(scanData) });
  }
  return events;
}
