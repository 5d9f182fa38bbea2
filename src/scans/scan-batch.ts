import { randomUUID } from 'node:crypto';
import { isUuid, type QrCodeId } from '../common/ids/resource-ids';
import { createLru } from '../infra/cache/lru';
import type { ScanEvent } from './scan-event';
import { classifyUserAgent } from './user-agent-class';
import type { VisitorHasher } from './visitor-hash';

/** A code's share of a batch: its scans that count (not bots), and all its rows (bots included). */
export interface CodeScans {
  codeId: QrCodeId;
  scans: number;
  rows: number;
}

/**
 * Scans as they are staged (one Redis list entry) and stored (one COPY): the batch's id, which
 * makes storing it idempotent (a batch re-read after a crash is recognised by its id), the scans
 * per code (the pending counts it settles and the `scans` it adds), and its rows in COPY's text
 * format, in the order of SCAN_EVENT_COLUMNS.
 */
export interface ScanBatch {
  id: string;
  codes: CodeScans[];
  rows: string | Buffer;
  /**
   * How many of SCAN_EVENT_COLUMNS (the first ones) its rows fill: all of them for a batch written
   * now, fewer for one staged by an earlier version of the service (in Redis or a spill file
   * across an upgrade), which is stored as it was written.
   */
  columns: number;
}

/**
 * The columns of scan_events that a batch's rows fill, in order (the user agent's columns after
 * the visitor hash: they are written as one remembered piece). A new column goes at the end, so a
 * batch staged by an earlier version fills a prefix of them (ScanBatch.columns).
 */
export const SCAN_EVENT_COLUMNS = [
  'event_id',
  'qr_code_id',
  'scanned_at',
  'referrer',
  'visitor_hash',
  'user_agent',
  'device',
  'os',
  'browser',
  'is_bot',
  'country',
  'city',
  'rule_index',
  'arm_index',
] as const;

/** The columns of batches staged before scans had a place (their staged header names no count of columns). */
const FIRST_STAGED_COLUMNS = 10;

/** Distinct user agents whose classified, escaped columns are remembered (they repeat: a few device and browser versions). */
const REMEMBERED_AGENTS = 2000;
const DAY_MS = 86_400_000;
/** What COPY's text format escapes (backslash, tab, newline, carriage return), and NUL, which PostgreSQL text cannot hold. */
const NEEDS_ESCAPE = /[\\\t\n\r\0]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '' };

/** A value as a field of COPY's text format: `\N` for null, special characters escaped. */
export function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return NEEDS_ESCAPE.test(value) ? value.replace(/[\\\t\n\r\0]/g, (c) => ESCAPES[c]) : value;
}

/** A rule's or arm's index as a COPY field (`\N`: none). */
const indexField = (index: number | null | undefined): string => (index === null || index === undefined ? '\\N' : String(index));

/**
 * Writes recorded scans as a ScanBatch, as text rather than through an object per scan: each
 * distinct user agent is classified (ua-parser, the costly part) and escaped once and remembered
 * across batches; each scan's visitor is hashed here, its IP left behind. Every value is escaped
 * for COPY.
 */
export class ScanBatchWriter {
  /** By verdict, then by the user agent itself: a key built from both would be a new string to hash on every scan. */
  private readonly agents = {
    bot: createLru<string>({ max: REMEMBERED_AGENTS, ttl: DAY_MS }),
    human: createLru<string>({ max: REMEMBERED_AGENTS, ttl: DAY_MS }),
  };
  private lastAt = Number.NaN;
  private lastIso = '';

  constructor(private readonly visitors: Pick<VisitorHasher, 'hash'>) {}

  write(events: readonly ScanEvent[]): ScanBatch {
    const codes = new Map<QrCodeId, CodeScans>();
    // Joined once rather than appended to: `+=` would leave a tree of thousands of string pieces to
    // survive garbage collections until the batch is stored; a joined text is one flat string.
    const lines: string[] = new Array<string>(events.length);
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      lines[i] =
        `${randomUUID()}\t${copyField(event.codeId)}\t${this.iso(event.at)}\t${copyField(event.referrer)}\t` +
        `${this.visitors.hash(event.at, event.ip, event.userAgent)}\t${this.agentFields(event.userAgent, event.isBot)}\t` +
        `${copyField(event.country)}\t${copyField(event.city)}\t${indexField(event.ruleIndex)}\t${indexField(event.armIndex)}\n`;
      let code = codes.get(event.codeId);
      if (!code) codes.set(event.codeId, (code = { codeId: event.codeId, scans: 0, rows: 0 }));
      code.rows++;
      if (!event.isBot) code.scans++;
    }
    return { id: randomUUID(), codes: [...codes.values()], rows: lines.join(''), columns: SCAN_EVENT_COLUMNS.length };
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
    const agents = isBot ? this.agents.bot : this.agents.human;
    // The LRU's keys are strings; a missing agent is remembered under '\0', which no header holds.
    const key = userAgent ?? '\0';
    let fields = agents.get(key);
    if (fields === undefined) {
      const found = classifyUserAgent(userAgent, isBot);
      fields = `${copyField(userAgent)}\t${copyField(found.device)}\t${copyField(found.os)}\t${copyField(found.browser)}\t${isBot ? 't' : 'f'}`;
      agents.set(key, fields);
    }
    return fields;
  }
}

interface StagedHeader {
  id: string;
  /** [code id, scans, rows] per code */
  codes: Array<[QrCodeId, number, number]>;
  /** ScanBatch.columns; absent in batches staged before scans had a place (FIRST_STAGED_COLUMNS). */
  columns?: number;
}

/** Ids as written (randomUUID, and as Postgres prints them): lower case, which is also how a store compares the ids it claimed. */
const isWrittenId = (value: unknown): value is string => isUuid(value) && value === value.toLowerCase();
const NEWLINE = 0x0a;

/** A batch as one Redis list entry: a JSON header line (id and counts), then the rows as they are. */
export function encodeStagedBatch(batch: ScanBatch): string {
  const header: StagedHeader = { id: batch.id, codes: batch.codes.map(({ codeId, scans, rows }) => [codeId, scans, rows]), columns: batch.columns };
  return `${JSON.stringify(header)}\n${typeof batch.rows === 'string' ? batch.rows : batch.rows.toString('utf8')}`;
}

/**
 * Reads a staged entry back; only its header is decoded, the rows go to the database as they are.
 * Throws on an entry without a readable header (its counts are unknown); see rowsMatchHeader for
 * its rows.
 */
export function decodeStagedBatch(entry: Buffer): ScanBatch {
  const end = entry.indexOf(NEWLINE);
  if (end < 0) throw new Error('staged scan batch without a header line');
  const header = JSON.parse(entry.subarray(0, end).toString('utf8')) as Partial<StagedHeader>;
  const valid =
    isWrittenId(header.id) &&
    Array.isArray(header.codes) &&
    header.codes.every(
      (c) => Array.isArray(c) && isWrittenId(c[0]) && Number.isInteger(c[1]) && Number.isInteger(c[2]) && c[1] >= 0 && c[2] >= c[1],
    ) &&
    (header.columns === undefined ||
      (Number.isInteger(header.columns) && header.columns >= FIRST_STAGED_COLUMNS && header.columns <= SCAN_EVENT_COLUMNS.length));
  if (!valid) throw new Error('staged scan batch with an unreadable header');
  return {
    id: header.id!,
    codes: header.codes!.map(([codeId, scans, rows]) => ({ codeId: codeId, scans, rows })),
    rows: entry.subarray(end + 1),
    columns: header.columns ?? FIRST_STAGED_COLUMNS,
  };
}

/** Whether a batch holds as many rows as its header counts (a staged entry damaged on the way would otherwise store, or count, wrong). */
export function rowsMatchHeader(batch: ScanBatch): boolean {
  const rows = typeof batch.rows === 'string' ? Buffer.from(batch.rows) : batch.rows;
  let lines = 0;
  for (let at = rows.indexOf(NEWLINE); at >= 0; at = rows.indexOf(NEWLINE, at + 1)) lines++;
  return lines === rowsOf(batch);
}

/** The rows of a batch (bots included). */
export function rowsOf(batch: ScanBatch): number {
  let rows = 0;
  for (const code of batch.codes) rows += code.rows;
  return rows;
}

/** The scans and rows of each code over several batches. */
export function sumByCode(batches: readonly ScanBatch[]): Map<QrCodeId, CodeScans> {
  const codes = new Map<QrCodeId, CodeScans>();
  for (const batch of batches) {
    for (const { codeId, scans, rows } of batch.codes) {
      const code = codes.get(codeId);
      if (code) {
        code.scans += scans;
        code.rows += rows;
      } else codes.set(codeId, { codeId, scans, rows });
    }
  }
  return codes;
}

/** Batches stored in one transaction: up to about this many bytes of rows (~300 bytes a scan). */
export const MAX_STORE_BYTES = 1024 * 1024;

/** Batches grouped into transactions of about MAX_STORE_BYTES of rows each. */
export function inStoreGroups(batches: readonly ScanBatch[]): ScanBatch[][] {
  const groups: ScanBatch[][] = [];
  let bytes = Infinity;
  for (const batch of batches) {
    if (bytes + batch.rows.length > MAX_STORE_BYTES) {
      groups.push([]);
      bytes = 0;
    }
    groups[groups.length - 1].push(batch);
    bytes += batch.rows.length;
  }
  return groups;
}

/** A stored scan as a batch's rows hold it (scan-events columns, COPY's escapes undone). */
export interface ScanRow {
  eventId: string;
  codeId: QrCodeId;
  scannedAt: string;
  referrer: string | null;
  visitorHash: string;
  device: string;
  os: string;
  browser: string;
  isBot: boolean;
  country: string | null;
  city: string | null;
  /** the smart-link rule and split arm that answered the scan (docs/smart-links.md), null when none */
  ruleIndex: number | null;
  armIndex: number | null;
}

const indexOf = (field: string): number | null => (field === '\\N' ? null : Number(field));
const UNESCAPES: Record<string, string> = { '\\\\': '\\', '\\t': '\t', '\\n': '\n', '\\r': '\r' };
/** A field of COPY's text format as its value: null for `\N`, escapes undone. */
export const unescapeField = (field: string): string | null =>
  field === '\\N' ? null : field.includes('\\') ? field.replace(/\\[\\tnr]/g, (c) => UNESCAPES[c]) : field;

/**
 * The rows of a batch that belong to `codeIds`, read back from COPY's text format (in
 * SCAN_EVENT_COLUMNS order). Only those rows are read: a row's code id sits at a fixed place (after
 * the 36-character event id and a tab), so the others are skipped unread.
 */
export function readRowsOf(batch: ScanBatch, codeIds: ReadonlySet<string>): ScanRow[] {
  const text = typeof batch.rows === 'string' ? batch.rows : batch.rows.toString('utf8');
  const placed = batch.columns > SCAN_EVENT_COLUMNS.indexOf('city');
  const ruled = batch.columns > SCAN_EVENT_COLUMNS.indexOf('arm_index');
  const rows: ScanRow[] = [];
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (codeIds.has(text.slice(start + 37, start + 73))) {
      // Fields by position: event id (36), code id (36), time, referrer, visitor hash, user agent, device, os, browser,
      // bot (one letter), country, city, rule index, arm index.
      const at = start + 74;
      const atEnd = text.indexOf('\t', at);
      const referrerEnd = text.indexOf('\t', atEnd + 1);
      const hashEnd = text.indexOf('\t', referrerEnd + 1);
      const agentEnd = text.indexOf('\t', hashEnd + 1);
      const deviceEnd = text.indexOf('\t', agentEnd + 1);
      const osEnd = text.indexOf('\t', deviceEnd + 1);
      const browserEnd = text.indexOf('\t', osEnd + 1);
      const countryEnd = placed ? text.indexOf('\t', browserEnd + 3) : -1;
      const cityEnd = placed ? text.indexOf('\t', countryEnd + 1) : -1;
      const ruleEnd = ruled ? text.indexOf('\t', cityEnd + 1) : -1;
      rows.push({
        eventId: text.slice(start, start + 36),
        codeId: text.slice(start + 37, start + 73) as QrCodeId,
        scannedAt: text.slice(at, atEnd),
        referrer: unescapeField(text.slice(atEnd + 1, referrerEnd)),
        visitorHash: text.slice(referrerEnd + 1, hashEnd),
        device: unescapeField(text.slice(agentEnd + 1, deviceEnd)) ?? '',
        os: unescapeField(text.slice(deviceEnd + 1, osEnd)) ?? '',
        browser: unescapeField(text.slice(osEnd + 1, browserEnd)) ?? '',
        isBot: text.charCodeAt(browserEnd + 1) === 116, // 't'
        country: placed ? unescapeField(text.slice(browserEnd + 3, countryEnd)) : null,
        city: placed ? unescapeField(text.slice(countryEnd + 1, cityEnd < 0 || cityEnd > end ? end : cityEnd)) : null,
        ruleIndex: ruled ? indexOf(text.slice(cityEnd + 1, ruleEnd)) : null,
        armIndex: ruled ? indexOf(text.slice(ruleEnd + 1, end)) : null,
      });
    }
    start = end + 1;
  }
  return rows;
}

/** Where a batch's rows are in scan_events: its event ids, its codes and its time span (a batch's rows by their primary-key parts). */
export interface BatchRowKeys {
  batchId: string;
  rows: number;
  codeIds: QrCodeId[];
  eventIds: string[];
  /** scanned_at of its first and last scan, ISO 8601 as written */
  firstAt: string;
  lastAt: string;
}

/**
 * The keys of a batch's rows, read from its COPY text without reading the rows whole: each row
 * starts with its event id (36 characters), its code id and its time, at fixed places. Null for a
 * batch without rows.
 */
export function rowKeysOf(batch: ScanBatch): BatchRowKeys | null {
  const text = typeof batch.rows === 'string' ? batch.rows : batch.rows.toString('utf8');
  const eventIds: string[] = [];
  let firstAt = '';
  let lastAt = '';
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > start) {
      eventIds.push(text.slice(start, start + 36));
      // ISO 8601 times in UTC of one format: their order as text is their order in time.
      const at = text.slice(start + 74, text.indexOf('\t', start + 74));
      if (firstAt === '' || at < firstAt) firstAt = at;
      if (at > lastAt) lastAt = at;
    }
    start = end + 1;
  }
  if (eventIds.length === 0) return null;
  return { batchId: batch.id, rows: eventIds.length, codeIds: batch.codes.map((code) => code.codeId), eventIds, firstAt, lastAt };
}
