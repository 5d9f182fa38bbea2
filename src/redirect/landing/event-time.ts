import { parseIsoDateTime } from '../../common/time/iso-date-time';

/**
 * An event's times as its visitors should read them: in the event's own time zone, which is the
 * UTC offset its start was written with ("2030-06-01T18:00+02:00" is 18:00 at UTC+02:00), or in
 * UTC when the start carries none. The zone is always named, since the reader may be elsewhere.
 */
export interface EventTimes {
  /** one line per part: ["Saturday 1 June 2030", "18:00 – 21:00"] */
  lines: string[];
  /** "UTC+02:00" or "UTC" */
  zone: string;
  /** the start's day of the month and short month name, for the date badge */
  day: string;
  month: string;
}

const OFFSET = /(Z|[+-]\d{2}(?::?\d{2})?)$/i;

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

// Written out rather than through Intl: the same text whatever ICU data the Node build carries.
const dateText = (wall: Date) => `${WEEKDAYS[wall.getUTCDay()]} ${wall.getUTCDate()} ${MONTHS[wall.getUTCMonth()]} ${wall.getUTCFullYear()}`;
const timeText = (wall: Date) => `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`;
const pad = (value: number) => String(value).padStart(2, '0');

/** Null when `start` (or a present `end`) is not an ISO 8601 date-time: the page then shows the text as stored. */
export function eventTimes(start: string, end?: string): EventTimes | null {
  const startsAt = parseIsoDateTime(start);
  const endsAt = end === undefined ? null : parseIsoDateTime(end);
  if (startsAt === null || (end !== undefined && endsAt === null)) return null;
  const offsetMinutes = utcOffsetMinutes(start);
  // Shifted by the offset, the UTC fields of these instants are the wall-clock fields in the event's zone.
  const startWall = new Date(startsAt + offsetMinutes * 60_000);
  const endWall = endsAt === null ? null : new Date(endsAt + offsetMinutes * 60_000);

  let lines: string[];
  if (endWall === null) lines = [dateText(startWall), timeText(startWall)];
  else if (sameDay(startWall, endWall)) lines = [dateText(startWall), `${timeText(startWall)} – ${timeText(endWall)}`];
  else lines = [`${dateText(startWall)}, ${timeText(startWall)} –`, `${dateText(endWall)}, ${timeText(endWall)}`];

  return { lines, zone: zoneLabel(offsetMinutes), day: String(startWall.getUTCDate()), month: MONTHS[startWall.getUTCMonth()].slice(0, 3) };
}

function utcOffsetMinutes(isoDateTime: string): number {
  const offset = OFFSET.exec(isoDateTime)?.[1];
  if (offset === undefined || offset.toUpperCase() === 'Z') return 0;
  const digits = offset.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + (digits.length > 2 ? Number(digits.slice(2)) : 0);
  return offset.startsWith('-') ? -minutes : minutes;
}

function zoneLabel(offsetMinutes: number): string {
  if (offsetMinutes === 0) return 'UTC';
  const absolute = Math.abs(offsetMinutes);
  return `UTC${offsetMinutes < 0 ? '−' : '+'}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

function sameDay(a: Date, b: Date): boolean {
  return a.getUTCFullYear() === b.getUTCFullYear() && a.getUTCMonth() === b.getUTCMonth() && a.getUTCDate() === b.getUTCDate();
}
