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

/**
 * A scan as stored, in the column names of scan_events: the JSON form in which scans are staged in
 * Redis and handed to Postgres, so a flush passes them on without parsing them.
 */
export interface StoredScan extends UserAgentClass {
  event_id: string;
  qr_code_id: string;
  scanned_at: string;
  user_agent: string | null;
  referrer: string | null;
  visitor_hash: string;
  is_bot: boolean;
}

/** The events as StoredScan JSON texts; each distinct user agent of the batch is classified once (parsing one is costly). */
export function toStoredScans(events: ScanEvent[]): string[] {
  const classes = new Map<string, UserAgentClass>();
  return events.map((event) => {
    const classKey = `${event.isBot ? 'bot' : 'human'}:${event.userAgent ?? ''}`;
    let found = classes.get(classKey);
    if (!found) classes.set(classKey, (found = classifyUserAgent(event.userAgent, event.isBot)));
    const stored: StoredScan = {
      event_id: event.eventId,
      qr_code_id: event.codeId,
      scanned_at: new Date(event.at).toISOString(),
      user_agent: event.userAgent,
      referrer: event.referrer,
      device: found.device,
      os: found.os,
      browser: found.browser,
      visitor_hash: event.visitorHash,
      is_bot: event.isBot,
    };
    return JSON.stringify(stored);
  });
}
