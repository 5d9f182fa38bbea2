import type { ScanInterval, ScanWindow } from '../scan-range';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** 1970-01-01 was a Thursday: day 4 since the epoch (1970-01-05) is the first Monday. */
const FIRST_MONDAY = 4;

/** The start (epoch ms, UTC) of the bucket holding `ms`: hour, day, or ISO week from Monday; as PostgreSQL's date_trunc in UTC. */
export function bucketStart(interval: ScanInterval, ms: number): number {
  if (interval === 'hour') return Math.floor(ms / HOUR_MS) * HOUR_MS;
  const day = Math.floor(ms / DAY_MS);
  if (interval === 'day') return day * DAY_MS;
  return (Math.floor((day - FIRST_MONDAY) / 7) * 7 + FIRST_MONDAY) * DAY_MS;
}

/** Every bucket start of the window, in order: from the bucket of `from` to the bucket of the last instant before `to`. */
export function bucketStarts(window: ScanWindow): number[] {
  const step = window.interval === 'hour' ? HOUR_MS : window.interval === 'day' ? DAY_MS : 7 * DAY_MS;
  const last = bucketStart(window.interval, window.to.getTime() - 1);
  const starts: number[] = [];
  for (let start = bucketStart(window.interval, window.from.getTime()); start <= last; start += step) starts.push(start);
  return starts;
}

/**
 * The same bucket in ClickHouse SQL, over an epoch-milliseconds column: integer arithmetic only,
 * so it does not depend on the server's time zone or on the date functions of its version.
 */
export function bucketStartSql(interval: ScanInterval, msColumn: string): string {
  const ms = `toInt64(${msColumn})`;
  if (interval === 'hour') return `intDiv(${ms}, ${HOUR_MS}) * ${HOUR_MS}`;
  if (interval === 'day') return `intDiv(${ms}, ${DAY_MS}) * ${DAY_MS}`;
  // Days since the first Monday are never negative for a scan after 1970-01-05; scans are far later.
  return `(intDiv(intDiv(${ms}, ${DAY_MS}) - ${FIRST_MONDAY}, 7) * 7 + ${FIRST_MONDAY}) * ${DAY_MS}`;
}
