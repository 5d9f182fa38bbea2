import { classifyUserAgent, UserAgentClass } from './user-agent-class';

/** A scan as recorded on the hot path; classification of the user agent happens at flush time. */
export interface ScanEvent {
  eventId: string;
  codeId: string;
  /** epoch milliseconds */
  at: number;
  userAgent: string | null;
  referrer: string | null;
  visitorHash: string;
  isBot: boolean;
}

const MAX_HEADER_CHARS = 512;

export const clipHeader = (value: string | string[] | undefined): string | null => {
  const text = Array.isArray(value) ? value[0] : value;
  return text ? text.slice(0, MAX_HEADER_CHARS) : null;
};

/** A scan as stored, in the column names of scan_events: the JSON form of the earlier versions' queues. */
export interface StoredScan extends UserAgentClass {
  event_id: string;
  qr_code_id: string;
  scanned_at: string;
  user_agent: string | null;
  referrer: string | null;
  visitor_hash: string;
  is_bot: boolean;
}

/**
 * Scans recorded by an earlier version (the first queue held one ScanEvent per entry), as one JSON
 * array of StoredScan: the form the legacy statement stores (ScanStoreRepository.storeJsonBatch).
 * Only old queues take this path, so it is written plainly.
 */
export function storedScansJson(events: readonly ScanEvent[]): string {
  return JSON.stringify(
    events.map((event) => ({
      event_id: event.eventId,
      // An entry of an unknown format has none: stored as null, the legacy statement reports and drops it.
      qr_code_id: event.codeId ?? null,
      scanned_at: new Date(event.at).toISOString(),
      user_agent: event.userAgent ?? null,
      referrer: event.referrer ?? null,
      ...classifyUserAgent(event.userAgent ?? null, event.isBot),
      visitor_hash: event.visitorHash,
      is_bot: event.isBot,
    })),
  );
}
