import type { FieldError } from '../common/validation/field-error';

/** Whether `name` is an IANA time zone this runtime knows (the `tz` parameter). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    // Intl throws a RangeError for an unknown zone: that is the answer, not a failure.
    return false;
  }
}

export const SCAN_INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type ScanInterval = (typeof SCAN_INTERVALS)[number];

const DAY_MS = 86_400_000;
/** Without `from`, the window is the 30 days before `to`. */
export const DEFAULT_SPAN_DAYS = 30;
/** Longest window per interval, so a series never has more than ~745 buckets. */
export const MAX_SPAN_DAYS: Record<ScanInterval, number> = { hour: 31, day: 366, week: 366, month: 731 };
/** The zone of bucket boundaries without `tz`. */
export const DEFAULT_TIME_ZONE = 'UTC';
/** Earliest instant accepted (Postgres has no year 0; no scan predates the epoch anyway). */
const EARLIEST_MS = 0;

/** The analytics window: scans with `from <= scanned_at < to`, bucketed by `interval` in `timeZone` (an IANA name). */
export interface ScanWindow {
  from: Date;
  to: Date;
  interval: ScanInterval;
  timeZone: string;
}

export type ScanWindowCheck = { ok: true; window: ScanWindow } | { ok: false; errors: FieldError[] };

/**
 * ISO 8601 / RFC 3339 date-time: date, `T`, hours and minutes, optional seconds and fraction,
 * optional offset (`Z`, `+hh:mm`, `-hhmm`; none means UTC). A space where the offset sign should be
 * is read as `+`: an unencoded `+` in a query string arrives as a space.
 */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+\- ])(\d{2}):?(\d{2}))?$/i;

/** The instant an ISO 8601 date-time names (millisecond precision), or null when it is not one or names no real date. */
export function parseQueryInstant(text: string): Date | null {
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second = '00', fraction = '', , sign, offsetHours = '00', offsetMinutes = '00'] = match;
  const wall = `${year}-${month}-${day}T${hour}:${minute}:${second}`;
  const wallMs = Date.parse(`${wall}.${fraction.padEnd(3, '0').slice(0, 3)}Z`);
  // Date.parse rolls some impossible dates over (Feb 30 → Mar 2): the round trip catches them.
  if (Number.isNaN(wallMs) || new Date(wallMs).toISOString().slice(0, 19) !== wall) return null;
  if (Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return null;
  const offsetMs = (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000 * (sign === '-' ? -1 : 1);
  const instant = wallMs - (sign ? offsetMs : 0);
  return instant >= EARLIEST_MS ? new Date(instant) : null;
}

/**
 * Resolves and checks the query of GET /qrcodes/:id/scans: `to` defaults to now, `from` to 30 days
 * before `to`; from must be before to, and the window at most MAX_SPAN_DAYS for the interval.
 * Every failure names its parameter.
 */
export function resolveScanWindow(query: { from?: string; to?: string; interval: ScanInterval; tz?: string }, now: Date): ScanWindowCheck {
  const errors: FieldError[] = [];
  const timeZone = query.tz ?? DEFAULT_TIME_ZONE;
  if (!isTimeZone(timeZone)) errors.push({ field: 'tz', message: 'tz must be an IANA time zone name, e.g. Europe/Berlin or UTC' });
  const parse = (field: 'from' | 'to', text: string | undefined): Date | null | undefined => {
    if (text === undefined) return undefined;
    const instant = parseQueryInstant(text);
    if (!instant) errors.push({ field, message: `${field} must be an ISO 8601 date-time after 1970, e.g. 2026-11-01T00:00:00Z` });
    return instant;
  };
  const givenFrom = parse('from', query.from);
  const givenTo = parse('to', query.to);
  if (errors.length) return { ok: false, errors };

  const to = givenTo ?? now;
  const from = givenFrom ?? new Date(to.getTime() - DEFAULT_SPAN_DAYS * DAY_MS);
  if (from.getTime() >= to.getTime()) {
    const toText = givenTo ? 'to' : `to (now, ${to.toISOString()})`;
    return { ok: false, errors: [{ field: 'from', message: `from must be earlier than ${toText}` }] };
  }
  const maxDays = MAX_SPAN_DAYS[query.interval];
  if (to.getTime() - from.getTime() > maxDays * DAY_MS) {
    return {
      ok: false,
      errors: [{ field: 'from', message: `from..to may span at most ${maxDays} days with interval=${query.interval}` }],
    };
  }
  return { ok: true, window: { from, to, interval: query.interval, timeZone } };
}
