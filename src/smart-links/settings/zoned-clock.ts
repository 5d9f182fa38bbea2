import type { Weekday } from './link-settings';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', weekday: 'short', hour: '2-digit', minute: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `timeZone` is an IANA time zone name this runtime knows (`UTC` included). */
export function isKnownTimeZone(timeZone: string): boolean {
  if (typeof timeZone !== 'string' || timeZone.length === 0 || timeZone.length > 64) return false;
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    // RangeError: Intl does not know the zone.
    return false;
  }
}

export interface WallClock {
  weekday: Weekday;
  /** minutes since local midnight */
  minutes: number;
}

const WEEKDAY_OF: Record<string, Weekday> = { Mon: 'mon', Tue: 'tue', Wed: 'wed', Thu: 'thu', Fri: 'fri', Sat: 'sat', Sun: 'sun' };

const MINUTE_MS = 60_000;
/**
 * The last wall clock read per zone, with the UTC minute it holds for. Zones' offsets and their
 * changes fall on whole minutes, so one reading serves every scan of that minute: formatToParts
 * costs microseconds, and a code's time rules ask for it at every scan.
 */
const lastReadings = new Map<string, { minute: number; clock: WallClock }>();

/** The local weekday and time of day of the instant `at` (epoch ms) in `timeZone`, by the zone's rules at that instant (DST included). */
export function wallClockAt(at: number, timeZone: string): WallClock {
  const minute = Math.floor(at / MINUTE_MS);
  const last = lastReadings.get(timeZone);
  if (last !== undefined && last.minute === minute) return last.clock;
  const clock = readWallClock(minute * MINUTE_MS, timeZone);
  lastReadings.set(timeZone, { minute, clock });
  return clock;
}

function readWallClock(at: number, timeZone: string): WallClock {
  let weekday: Weekday = 'mon';
  let hour = 0;
  let minute = 0;
  for (const part of formatterOf(timeZone).formatToParts(at)) {
    if (part.type === 'weekday') weekday = WEEKDAY_OF[part.value];
    else if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  return { weekday, minutes: hour * 60 + minute };
}

/** "HH:MM" (00:00-23:59, or 24:00 as the end of a day) as minutes since midnight, or null. */
export function minutesOf(text: string): number | null {
  const match = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(text);
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return minutes <= 24 * 60 ? minutes : null;
}
