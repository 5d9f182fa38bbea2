import type { FieldError } from '../../common/validation/field-error';
import { isTimeZone } from '../../analytics/scan-window-plan';
import { DEFAULT_STATS_RANGE, intervalsFor, STATS_RANGES, type StatsRange } from './stats-sections';

export interface StatsQuery {
  days: StatsRange;
  interval: 'hour' | 'day' | 'week' | 'month';
  timeZone: string;
}

export type StatsQueryCheck = { ok: true; query: StatsQuery } | { ok: false; errors: FieldError[] };

const KNOWN = new Set(['days', 'interval', 'tz']);

/**
 * The query of a public stats page and its JSON: `days` (one of STATS_RANGES, default 30),
 * `interval` (one the range allows, default day) and `tz` (an IANA zone, default UTC). Anything else
 * is refused by name, so a page's address means one thing.
 */
export function parseStatsQuery(raw: Record<string, unknown>): StatsQueryCheck {
  const errors: FieldError[] = [];
  for (const name of Object.keys(raw)) if (!KNOWN.has(name)) errors.push({ field: name, message: `${name} is not a parameter of this page` });
  const text = (name: string): string | undefined => {
    const value = raw[name];
    if (value === undefined || typeof value === 'string') return value;
    errors.push({ field: name, message: `${name} must be given once` });
    return undefined;
  };
  const daysText = text('days');
  const days = daysText === undefined ? DEFAULT_STATS_RANGE : (STATS_RANGES.find((range) => String(range) === daysText) ?? null);
  if (days === null) errors.push({ field: 'days', message: `days must be one of: ${STATS_RANGES.join(', ')}` });
  const allowed = intervalsFor(days ?? DEFAULT_STATS_RANGE);
  const intervalText = text('interval') ?? 'day';
  const interval = allowed.find((candidate) => candidate === intervalText) ?? null;
  if (interval === null)
    errors.push({ field: 'interval', message: `interval must be one of: ${allowed.join(', ')} (for ${days ?? DEFAULT_STATS_RANGE} days)` });
  const timeZone = text('tz') ?? 'UTC';
  if (!isTimeZone(timeZone)) errors.push({ field: 'tz', message: 'tz must be an IANA time zone name, e.g. Europe/Berlin or UTC' });
  if (errors.length > 0 || days === null || interval === null) return { ok: false, errors };
  return { ok: true, query: { days, interval, timeZone } };
}
