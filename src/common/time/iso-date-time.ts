/**
 * ISO 8601 date-times in extended format (`2025-06-01T18:30:00Z`, `2025-06-01T20:30+02:00`,
 * `2025-06-01T18:30:00.250Z`). A date-time without an offset is read as UTC, so the encoded event
 * never depends on the server's time zone.
 */

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Milliseconds since the epoch, or null when `value` is not a real ISO 8601 date-time. */
export function parseIsoDateTime(value: string): number | null {
  const match = ISO_DATE_TIME.exec(value);
  if (match === null) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number);
  const second = match[6] === undefined ? 0 : Number(match[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offsetMinutes = parseOffsetMinutes(match[7]);
  if (offsetMinutes === null) return null;

  // Date.UTC maps years 0..99 to 1900..1999; setUTCFullYear takes the year as written.
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, 0);
  const utc = local.getTime() - offsetMinutes * 60_000;
  const utcYear = new Date(utc).getUTCFullYear();
  return utcYear >= 0 && utcYear <= 9999 ? utc : null;
}

/** iCalendar's UTC form, `YYYYMMDDTHHMMSSZ` (RFC 5545 §3.3.5); sub-second parts are dropped. */
export function formatICalendarUtc(epochMilliseconds: number): string {
  const at = new Date(epochMilliseconds);
  const pad = (part: number, width = 2) => String(part).padStart(width, '0');
  return (
    `${pad(at.getUTCFullYear(), 4)}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}` +
    `T${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}Z`
  );
}

function parseOffsetMinutes(offset: string | undefined): number | null {
  if (offset === undefined || offset.toUpperCase() === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return null;
  return sign * (hours * 60 + minutes);
}

function daysInMonth(year: number, month: number): number {
  const isLeapYear = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, isLeapYear ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}
