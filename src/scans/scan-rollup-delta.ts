import type { QrCodeId } from '../common/ids/resource-ids';
import type { ScanRow } from './scan-batch';

/** The value of the country dimension for scans whose country is not known (as the analytics name it). */
const UNKNOWN_COUNTRY = 'unknown';

/**
 * What a store adds to the daily rollups (docs/scans-and-privacy.md#how-analytics-are-kept), as the
 * column arrays its statements take: per code and UTC day the scans and bot scans; per code, day
 * and dimension value the human scans (referrers raw: the database maps them to hosts); and the
 * distinct visitor hashes of human scans per code and day (the database counts those it has not
 * seen yet).
 */
export interface ScanRollupDelta {
  days: { codeIds: QrCodeId[]; days: string[]; scans: number[]; botScans: number[] };
  values: { codeIds: QrCodeId[]; days: string[]; dimensions: string[]; values: Array<string | null>; details: string[]; scans: number[] };
  visitors: { codeIds: QrCodeId[]; days: string[]; hashes: string[] };
  /** The earliest UTC day of the rows (`YYYY-MM-DD`), or null without rows. */
  earliestDay: string | null;
}

/** Rows summed per code, UTC day and dimension value (what a store adds to the rollups). */
export function scanRollupDeltaOf(rows: readonly ScanRow[]): ScanRollupDelta {
  const days = new Map<string, { codeId: QrCodeId; day: string; scans: number; botScans: number }>();
  const values = new Map<string, { codeId: QrCodeId; day: string; dimension: string; value: string | null; detail: string; scans: number }>();
  const visitors = new Map<string, { codeId: QrCodeId; day: string; hash: string }>();
  let earliestDay: string | null = null;
  const addValue = (codeId: QrCodeId, day: string, dimension: string, value: string | null, detail = '') => {
    // Only the value (last) can hold a tab, so the key is unambiguous; NUL (never stored: COPY drops it) stands for null.
    const key = `${codeId}\t${day}\t${dimension}\t${detail}\t${value ?? '\u0000'}`;
    const entry = values.get(key);
    if (entry) entry.scans++;
    else values.set(key, { codeId, day, dimension, value, detail, scans: 1 });
  };
  for (const row of rows) {
    // Times are ISO 8601 in UTC as the batch writes them: the UTC day is their first ten characters.
    const day = row.scannedAt.slice(0, 10);
    if (earliestDay === null || day < earliestDay) earliestDay = day;
    const dayKey = `${row.codeId}\t${day}`;
    let total = days.get(dayKey);
    if (!total) days.set(dayKey, (total = { codeId: row.codeId, day, scans: 0, botScans: 0 }));
    if (row.isBot) {
      total.botScans++;
      continue;
    }
    total.scans++;
    visitors.set(`${dayKey}\t${row.visitorHash}`, { codeId: row.codeId, day, hash: row.visitorHash });
    addValue(row.codeId, day, 'device', row.device);
    addValue(row.codeId, day, 'os', row.os);
    addValue(row.codeId, day, 'browser', row.browser);
    addValue(row.codeId, day, 'referrer', row.referrer);
    addValue(row.codeId, day, 'country', row.country ?? UNKNOWN_COUNTRY);
    if (row.city !== null) addValue(row.codeId, day, 'city', row.city, row.country ?? '');
    if (row.ruleIndex !== null) addValue(row.codeId, day, 'rule', String(row.ruleIndex));
    if (row.armIndex !== null) addValue(row.codeId, day, 'arm', String(row.armIndex), row.ruleIndex === null ? '' : String(row.ruleIndex));
  }
  const dayRows = [...days.values()];
  const valueRows = [...values.values()];
  const visitorRows = [...visitors.values()];
  return {
    days: {
      codeIds: dayRows.map((row) => row.codeId),
      days: dayRows.map((row) => row.day),
      scans: dayRows.map((row) => row.scans),
      botScans: dayRows.map((row) => row.botScans),
    },
    values: {
      codeIds: valueRows.map((row) => row.codeId),
      days: valueRows.map((row) => row.day),
      dimensions: valueRows.map((row) => row.dimension),
      values: valueRows.map((row) => row.value),
      details: valueRows.map((row) => row.detail),
      scans: valueRows.map((row) => row.scans),
    },
    visitors: {
      codeIds: visitorRows.map((row) => row.codeId),
      days: visitorRows.map((row) => row.day),
      hashes: visitorRows.map((row) => row.hash),
    },
    earliestDay,
  };
}
