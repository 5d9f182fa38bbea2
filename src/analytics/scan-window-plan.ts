import type { ScanInterval, ScanWindow } from './scan-range';

/** Kept here for the callers that read it beside the plan (share/stats-page); it lives in scan-range.ts. */
export { isTimeZone } from './scan-range';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock time of `instant` in `timeZone`, as if that wall time were UTC (epoch ms, whole seconds). */
function wallTimeOf(instant: number, timeZone: string): number {
  if (timeZone === 'UTC') return instant - (((instant % 1000) + 1000) % 1000);
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(instant))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/**
 * The instant a wall-clock time (given as if it were UTC) names in `timeZone`. A wall time in a
 * daylight-saving gap (a midnight some zones skip) gives the instant the gap ends.
 */
function instantOfWallTime(wall: number, timeZone: string): number {
  if (timeZone === 'UTC') return wall;
  const guess = wall - (wallTimeOf(wall, timeZone) - wall);
  const corrected = wall - (wallTimeOf(guess, timeZone) - guess);
  if (wallTimeOf(corrected, timeZone) === wall) return corrected;
  if (wallTimeOf(guess, timeZone) === wall) return guess;
  return Math.max(guess, corrected);
}

/** The start of the bucket (in `timeZone`) holding `instant`. Weeks are ISO weeks, from Monday. */
function bucketStartOf(instant: number, interval: ScanInterval, timeZone: string): number {
  // A zone's offset holds within an hour: the local hour starts the local minutes and seconds earlier.
  if (interval === 'hour') return instant - (wallTimeOf(instant, timeZone) % HOUR_MS) - (((instant % 1000) + 1000) % 1000);
  const wall = new Date(wallTimeOf(instant, timeZone));
  const year = wall.getUTCFullYear();
  const month = wall.getUTCMonth();
  if (interval === 'month') return instantOfWallTime(Date.UTC(year, month, 1), timeZone);
  const day = wall.getUTCDate() - (interval === 'week' ? (wall.getUTCDay() + 6) % 7 : 0);
  return instantOfWallTime(Date.UTC(year, month, day), timeZone);
}

/** The start of the bucket after the one starting at `start`. */
function nextBucketStart(start: number, interval: ScanInterval, timeZone: string): number {
  // Hours are stepped in real time: a local hour is an hour long even across a DST change.
  if (interval === 'hour') return start + HOUR_MS;
  const wall = new Date(wallTimeOf(start, timeZone));
  const [year, month, day] = [wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()];
  const next = interval === 'month' ? Date.UTC(year, month + 1, 1) : Date.UTC(year, month, day + (interval === 'week' ? 7 : 1));
  return instantOfWallTime(next, timeZone);
}

/** A UTC day (`YYYY-MM-DD`) counted whole from the rollups, in bucket `bucket`. */
export interface RolledDay {
  day: string;
  bucket: number;
}

/** A time range `[from, to)` read from raw scan events, in bucket `bucket`. */
export interface RawRange {
  from: Date;
  to: Date;
  bucket: number;
}

/**
 * How a window is answered (docs/scans-and-privacy.md#how-analytics-are-kept): its buckets' starts
 * in the window's time zone, the UTC days lying whole inside one bucket and the window (read from
 * the daily rollups) and the rest (read from raw events: the window's edges, and the parts of UTC
 * days a bucket boundary cuts, which with a zone other than UTC is every day it spans).
 */
export interface ScanWindowPlan {
  starts: Date[];
  days: RolledDay[];
  raw: RawRange[];
}

export function planScanWindow(window: ScanWindow): ScanWindowPlan {
  const from = window.from.getTime();
  const to = window.to.getTime();
  const starts: Date[] = [];
  const days: RolledDay[] = [];
  const raw: RawRange[] = [];
  for (let start = bucketStartOf(from, window.interval, window.timeZone); start < to;) {
    const next = nextBucketStart(start, window.interval, window.timeZone);
    const bucket = starts.length;
    starts.push(new Date(start));
    const segmentFrom = Math.max(start, from);
    const segmentTo = Math.min(next, to);
    const firstDay = Math.ceil(segmentFrom / DAY_MS) * DAY_MS;
    const lastDayEnd = Math.floor(segmentTo / DAY_MS) * DAY_MS;
    if (lastDayEnd - firstDay >= DAY_MS) {
      if (segmentFrom < firstDay) raw.push({ from: new Date(segmentFrom), to: new Date(firstDay), bucket });
      for (let day = firstDay; day < lastDayEnd; day += DAY_MS) days.push({ day: new Date(day).toISOString().slice(0, 10), bucket });
      if (lastDayEnd < segmentTo) raw.push({ from: new Date(lastDayEnd), to: new Date(segmentTo), bucket });
    } else {
      raw.push({ from: new Date(segmentFrom), to: new Date(segmentTo), bucket });
    }
    start = next;
  }
  return { starts, days, raw };
}

/**
 * The window widened to whole local days in its zone (whole hours with interval=hour): what
 * account-wide analytics answer, so that in UTC they read the rollups alone (an account's partial
 * days would be raw scans of every code it has).
 */
export function widenToWholeDays(window: ScanWindow): ScanWindow {
  const unit = window.interval === 'hour' ? 'hour' : 'day';
  const from = bucketStartOf(window.from.getTime(), unit, window.timeZone);
  const lastStart = bucketStartOf(window.to.getTime() - 1, unit, window.timeZone);
  return { ...window, from: new Date(from), to: new Date(nextBucketStart(lastStart, unit, window.timeZone)) };
}
