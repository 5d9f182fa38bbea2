import { LruMap } from '../infra/cache/lru-map';
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

/** Distinct user agents whose classified, escaped fields are remembered (they repeat: a few device and browser versions). */
const REMEMBERED_AGENTS = 2000;
const DAY_MS = 86_400_000;

/** Ids and hashes we generate are plain: they need no escaping (checked, as they may come from an older queue). */
const PLAIN = /^[0-9a-zA-Z-]*$/;
const jsonString = (value: string | null | undefined) =>
  value === null || value === undefined ? 'null' : PLAIN.test(value) ? `"${value}"` : JSON.stringify(value);

/**
 * Writes scans as one JSON array of StoredScan objects: a batch staged in Redis (one list entry)
 * and handed to Postgres (one statement). Written as text rather than through an object per scan
 * and JSON.stringify, which cost 3 µs a scan; each distinct user agent is classified (ua-parser,
 * the costly part) and escaped once and remembered across batches. Every value is JSON-escaped.
 */
export class StoredScanWriter {
  private readonly agents = new LruMap<string>(REMEMBERED_AGENTS);
  private lastAt = Number.NaN;
  private lastIso = '';

  toJsonArray(events: readonly ScanEvent[]): string {
    let json = '[';
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      json += `${i === 0 ? '' : ','}{"event_id":${jsonString(event.eventId)},"qr_code_id":${jsonString(event.codeId)},"scanned_at":"${this.iso(event.at)}",` +
        `"referrer":${jsonString(event.referrer)},"visitor_hash":${jsonString(event.visitorHash)},${this.agentFields(event.userAgent, event.isBot)}}`;
    }
    return json + ']';
  }

  /** Scans come many to the millisecond under load: the last one's ISO time is reused. */
  private iso(at: number): string {
    if (at !== this.lastAt) {
      this.lastAt = at;
      this.lastIso = new Date(at).toISOString();
    }
    return this.lastIso;
  }

  private agentFields(userAgent: string | null, isBot: boolean): string {
    const key = `${isBot ? 'b' : 'h'}${userAgent ?? ''}`;
    let fields = this.agents.get(key);
    if (fields === undefined) {
      const found = classifyUserAgent(userAgent, isBot);
      fields = `"user_agent":${jsonString(userAgent)},"device":${jsonString(found.device)},"os":${jsonString(found.os)},"browser":${jsonString(found.browser)},"is_bot":${isBot}`;
      this.agents.set(key, fields, DAY_MS);
    }
    return fields;
  }
}
