import type { QrCodeId } from '../common/ids/resource-ids';
import { SCAN_EVENT_COLUMNS, type ScanBatch, unescapeField } from './scan-batch';

/** The value of the country dimension for scans whose country is not known (as the analytics name it). */
const UNKNOWN_COUNTRY = 'unknown';
/** A row's fields by position (SCAN_EVENT_COLUMNS): field k starts after k tabs. */
const REFERRER = SCAN_EVENT_COLUMNS.indexOf('referrer');
const HASH = SCAN_EVENT_COLUMNS.indexOf('visitor_hash');
const DEVICE = SCAN_EVENT_COLUMNS.indexOf('device');
const BOT = SCAN_EVENT_COLUMNS.indexOf('is_bot');

/**
 * What a store adds to the daily rollups (docs/scans-and-privacy.md#how-analytics-are-kept), as the
 * column arrays its statements take: per code and UTC day the scans and bot scans; per code, day
 * and dimension value the human scans (referrers raw: the database maps them to hosts); and the
 * distinct visitor hashes of human scans per code and day (the database counts those it has not
 * seen yet). Few, long array elements: the driver's cost is per element.
 */
export interface ScanRollupDelta {
  days: { codeIds: QrCodeId[]; days: string[]; scans: number[]; botScans: number[] };
  values: { codeIds: QrCodeId[]; days: string[]; dimensions: string[]; values: Array<string | null>; details: string[]; scans: number[] };
  /** per code and day, its distinct visitor hashes (32 characters each) written one after the other: one array element per code and day */
  visitors: { codeIds: QrCodeId[]; days: string[]; hashes: string[] };
  /** The earliest UTC day of the rows (`YYYY-MM-DD`), or null without rows. */
  earliestDay: string | null;
}

/** One code's day in a store: its counts, its human scans' visitor hashes, and their dimension tuples and referrers counted. */
interface CodeDay {
  scans: number;
  botScans: number;
  hashes: Set<string>;
  /** the row's fields from `device` to its end (device, os, browser, bot, country, city, rule, arm), as written */
  tuples: Map<string, number>;
  /** the referrer field as written */
  referrers: Map<string, number>;
}

/**
 * The rows of `batches` whose codes are in `codeIds`, summed per code, UTC day and dimension value,
 * read from their COPY text: it runs in the process that answers redirects, after every batch, so
 * it keeps no object per row. A human row adds two counts keyed by slices of its own text (its
 * dimension fields, which lie together, and its referrer); each distinct tuple is split into
 * dimension values once.
 */
export function scanRollupDeltaOf(batches: readonly ScanBatch[], codeIds: ReadonlySet<string>): ScanRollupDelta {
  const codes = new Map<string, Map<string, CodeDay>>();
  let earliestDay: string | null = null;
  for (const batch of batches) {
    const text = typeof batch.rows === 'string' ? batch.rows : batch.rows.toString('utf8');
    for (let start = 0; start < text.length;) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const codeId = text.slice(start + 37, start + 73);
      if (end > start && codeIds.has(codeId)) {
        // Times are ISO 8601 in UTC as the batch writes them: the UTC day is their first ten characters.
        const day = text.slice(start + 74, start + 84);
        if (earliestDay === null || day < earliestDay) earliestDay = day;
        let days = codes.get(codeId);
        if (!days) codes.set(codeId, (days = new Map<string, CodeDay>()));
        let codeDay = days.get(day);
        if (!codeDay) days.set(day, (codeDay = { scans: 0, botScans: 0, hashes: new Set(), tuples: new Map(), referrers: new Map() }));
        const referrerStart = nthTab(text, start, REFERRER - 1) + 1;
        const hashStart = nthTab(text, referrerStart, HASH - REFERRER - 1) + 1;
        const deviceStart = nthTab(text, hashStart, DEVICE - HASH - 1) + 1;
        const bot = text.charCodeAt(nthTab(text, deviceStart, BOT - DEVICE - 1) + 1) === 116; // 't'
        if (bot) codeDay.botScans++;
        else {
          codeDay.scans++;
          codeDay.hashes.add(text.slice(hashStart, text.indexOf('\t', hashStart)));
          count(codeDay.tuples, text.slice(deviceStart, end));
          count(codeDay.referrers, text.slice(referrerStart, hashStart - 1));
        }
      }
      start = end + 1;
    }
  }
  return flatten(codes, earliestDay);
}

/** The index of the `n`-th tab from `from` on (n = 0: the first). */
function nthTab(text: string, from: number, n: number): number {
  let at = text.indexOf('\t', from);
  for (let i = 0; i < n; i++) at = text.indexOf('\t', at + 1);
  return at;
}

function count(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function flatten(codes: Map<string, Map<string, CodeDay>>, earliestDay: string | null): ScanRollupDelta {
  const delta: ScanRollupDelta = {
    days: { codeIds: [], days: [], scans: [], botScans: [] },
    values: { codeIds: [], days: [], dimensions: [], values: [], details: [], scans: [] },
    visitors: { codeIds: [], days: [], hashes: [] },
    earliestDay,
  };
  for (const [codeId, days] of codes)
    for (const [day, codeDay] of days) {
      delta.days.codeIds.push(codeId as QrCodeId);
      delta.days.days.push(day);
      delta.days.scans.push(codeDay.scans);
      delta.days.botScans.push(codeDay.botScans);
      if (codeDay.hashes.size > 0) {
        delta.visitors.codeIds.push(codeId as QrCodeId);
        delta.visitors.days.push(day);
        delta.visitors.hashes.push([...codeDay.hashes].join(''));
      }
      const values = new Map<string, { dimension: string; value: string | null; detail: string; scans: number }>();
      const add = (dimension: string, value: string | null, detail: string, scans: number) => {
        const key = `${dimension}\t${detail}\t${value ?? '\u0000'}`;
        const entry = values.get(key);
        if (entry) entry.scans += scans;
        else values.set(key, { dimension, value, detail, scans });
      };
      for (const [referrer, scans] of codeDay.referrers) add('referrer', unescapeField(referrer), '', scans);
      for (const [tuple, scans] of codeDay.tuples) {
        // device, os, browser, bot, then (batches staged before they existed may lack them) country, city, rule, arm
        const [device, os, browser, , country = '\\N', city = '\\N', rule = '\\N', arm = '\\N'] = tuple.split('\t');
        const countryValue = unescapeField(country);
        add('device', unescapeField(device) ?? '', '', scans);
        add('os', unescapeField(os) ?? '', '', scans);
        add('browser', unescapeField(browser) ?? '', '', scans);
        add('country', countryValue ?? UNKNOWN_COUNTRY, '', scans);
        if (city !== '\\N') add('city', unescapeField(city), countryValue ?? '', scans);
        if (rule !== '\\N') add('rule', rule, '', scans);
        if (arm !== '\\N') add('arm', arm, rule === '\\N' ? '' : rule, scans);
      }
      for (const entry of values.values()) {
        delta.values.codeIds.push(codeId as QrCodeId);
        delta.values.days.push(day);
        delta.values.dimensions.push(entry.dimension);
        delta.values.values.push(entry.value);
        delta.values.details.push(entry.detail);
        delta.values.scans.push(entry.scans);
      }
    }
  return delta;
}
