import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { AccountId } from '../../common/ids/account-id';
import type { QrCodeId } from '../../common/ids/resource-ids';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ClickHouseConnection } from '../../infra/clickhouse/clickhouse-connection';
import { integerLiteral, uuidList, uuidLiteral, uuidSet } from '../../infra/clickhouse/clickhouse-literals';
import { Database } from '../../infra/database/database.service';
import type { ScanAnalyticsReader } from '../scan-analytics-reader';
import {
  type AccountScanAggregates,
  type AccountScanFilter,
  BREAKDOWN_DIMENSIONS,
  BREAKDOWN_TOP,
  type BreakdownDimension,
  type ScanAggregates,
  type ScanBreakdowns,
  type TopCode,
  UNKNOWN_COUNTRY,
} from '../scan-aggregates';
import type { ScanWindow } from '../scan-range';
import { planScanWindow } from '../scan-window-plan';
import type { ExportedScan } from './clickhouse-export-outbox.repository';
import { type BucketCells, bucketCells, bucketIndexSql, ClickHouseDeclined } from './scan-buckets';

/** The column each breakdown groups by in ClickHouse (the referrer's host is stored computed). */
const BREAKDOWN_COLUMN: Record<BreakdownDimension, string> = { device: 'device', os: 'os', browser: 'browser', referrer: 'referrer_host' };

/**
 * Account-wide analytics of at most this many codes read ClickHouse when the codes must be listed
 * (a folder or type filter, a folder-restricted key): their ids travel in the statement (37 bytes
 * each) and every part of it builds their set. More, and PostgreSQL answers.
 */
export const MAX_LISTED_CODES = 10_000;

/** Which of the account's rows a statement reads: all, only these codes', or all but these codes'. */
type CodeScope = { only: readonly string[] } | { except: readonly string[] } | 'all';

interface AggregateRow {
  kind: string;
  bucket: string | number;
  value: string;
  /** a city's country ('' when unknown; other kinds: '') */
  place: string;
  scans: string | number;
  uniques: string | number;
  bots: string | number;
}

/** A count from ClickHouse's JSON (64-bit integers come quoted); anything but a whole number ≥ 0 is a garbled answer. */
function count(value: unknown): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
    throw new Error(`ClickHouse answered a count that is not one: ${String(value).slice(0, 40)}`);
  return n;
}

/** Ties by value as UTF-8 bytes, as ClickHouse and PostgreSQL's COLLATE "C" order them (not as UTF-16 units). */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * scan_events in ClickHouse (schema: src/infra/clickhouse/clickhouse-schema.ts): the export's
 * writes, and analytics computed there. The answers are PostgreSQL's (ScanAnalyticsRepository) for
 * the same stored scans: the same filters to the millisecond, the same buckets in any zone
 * (planScanWindow's starts, found by integer arithmetic: scan-buckets.ts), exact unique visitors
 * (uniqExact: visitor hashes are per UTC day, so distinct over a bucket is what PostgreSQL sums
 * over its days), breakdown ties ordered by value as bytes (as COLLATE "C").
 */
@Injectable()
export class ClickHouseScanEventsRepository implements ScanAnalyticsReader {
  private readonly queryTimeoutMs: number;

  constructor(
    private readonly clickhouse: ClickHouseConnection,
    private readonly database: Database,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.queryTimeoutMs = config.clickhouse?.queryTimeoutMs ?? 0;
  }

  private get table(): string {
    return `${this.clickhouse.database}.scan_events`;
  }

  /**
   * The event ids of these scans that ClickHouse already holds (an earlier claim of their batches
   * wrote them, wholly or in part), found through the sort key: their accounts, codes and seconds.
   */
  async alreadyWritten(scans: readonly ExportedScan[]): Promise<Set<string>> {
    if (scans.length === 0) return new Set();
    let first = Infinity;
    let last = -Infinity;
    for (const scan of scans) {
      first = Math.min(first, scan.scannedAt.getTime());
      last = Math.max(last, scan.scannedAt.getTime());
    }
    const firstSecond = integerLiteral(Math.floor(first / 1000));
    const lastSecond = integerLiteral(Math.floor(last / 1000));
    const rows = await this.clickhouse.select<{ event_id: string }>(
      `SELECT toString(event_id) AS event_id FROM ${this.table}
       WHERE account_id IN (${uuidList(scans.map((s) => s.accountId))}) AND qr_code_id IN (${uuidList(scans.map((s) => s.codeId))})
         AND scanned_at >= toDateTime(${firstSecond}) AND scanned_at <= toDateTime(${lastSecond})
         AND batch_id IN (${uuidList(scans.map((s) => s.batchId))})`,
    );
    return new Set(rows.map((row) => row.event_id));
  }

  /** The scans, in one INSERT. */
  async insert(scans: readonly ExportedScan[]): Promise<void> {
    if (scans.length === 0) return;
    await this.clickhouse.insert(
      'scan_events',
      scans.map((s) => {
        const ms = s.scannedAt.getTime();
        return {
          account_id: s.accountId,
          qr_code_id: s.codeId,
          scanned_at: Math.floor(ms / 1000),
          scanned_at_ms: ms,
          event_id: s.eventId,
          batch_id: s.batchId,
          visitor_hash: s.visitorHash,
          is_bot: s.isBot ? 1 : 0,
          device: s.device,
          os: s.os,
          browser: s.browser,
          referrer: s.referrer,
          referrer_host: s.referrerHost,
          user_agent: s.userAgent,
          country: s.country,
          city: s.city,
          rule_index: s.ruleIndex,
          arm_index: s.armIndex,
        };
      }),
    );
  }

  /**
   * /scans of one code from ClickHouse, in one statement. The code is looked up in PostgreSQL first
   * (ClickHouse keeps a deleted code's scans until they are dropped; a key restricted to folders sees
   * only its folders' codes): null when the account has no such code.
   */
  async aggregate(accountId: AccountId, codeId: QrCodeId, window: ScanWindow): Promise<ScanAggregates | null> {
    const starts = planScanWindow(window).starts;
    const cells = bucketCells(
      starts.map((start) => start.getTime()),
      window.to.getTime(),
    );
    const owned = await this.database.read.forAccount(accountId).selectFrom('qr_codes').select('id').where('id', '=', codeId).executeTakeFirst();
    if (!owned) return null;
    const where = `${this.windowWhere(accountId, window)} AND qr_code_id = ${uuidLiteral(codeId)}`;
    const parts = [
      ...this.commonParts(where, cells, 'visitor_hash'),
      // Smart-link rules and split arms (docs/smart-links.md): an arm is counted per rule (its index rides in place).
      `SELECT 'rule' AS kind, toInt64(0) AS bucket, toString(assumeNotNull(rule_index)) AS value, '' AS place, count() AS scans,
         toUInt64(0) AS uniques, toUInt64(0) AS bots FROM ${this.table} WHERE ${where} AND is_bot = 0 AND rule_index IS NOT NULL
       GROUP BY value ORDER BY scans DESC, value LIMIT ${BREAKDOWN_TOP}`,
      // Ranked as PostgreSQL ranks them: the arm's index as text, then the rule's.
      `SELECT 'arm' AS kind, toInt64(0) AS bucket, toString(assumeNotNull(arm_index)) AS value, toString(assumeNotNull(rule_index)) AS place,
         count() AS scans, toUInt64(0) AS uniques, toUInt64(0) AS bots FROM ${this.table} WHERE ${where} AND is_bot = 0 AND arm_index IS NOT NULL
       GROUP BY value, place ORDER BY scans DESC, value, place LIMIT ${BREAKDOWN_TOP}`,
    ];
    const rows = await this.select(parts);
    const byRule: ScanAggregates['byRule'] = [];
    const byArm: ScanAggregates['byArm'] = [];
    for (const row of rows) {
      if (row.kind === 'rule') byRule.push({ rule: count(row.value), scans: count(row.scans) });
      else if (row.kind === 'arm') byArm.push({ rule: count(row.place), arm: count(row.value), scans: count(row.scans) });
    }
    // Ties as PostgreSQL ranks them: by the index as text, then (arms) the rule's.
    byRule.sort((a, b) => b.scans - a.scans || byBytes(String(a.rule), String(b.rule)));
    byArm.sort((a, b) => b.scans - a.scans || byBytes(String(a.arm), String(b.arm)) || byBytes(String(a.rule), String(b.rule)));
    return {
      ...this.commonAnswer(
        rows.filter((row) => row.kind !== 'rule' && row.kind !== 'arm'),
        starts,
      ),
      byRule,
      byArm,
    };
  }

  /**
   * Account-wide analytics from ClickHouse. ClickHouse knows codes by account and id only, so which
   * codes count is PostgreSQL's to say: with a folder, type or tag filter, or a folder-restricted key,
   * the allowed codes' ids are listed in the statement (up to MAX_LISTED_CODES, else PostgreSQL
   * answers: ClickHouseDeclined); without, the account's rows are read whole, and if they hold codes
   * PostgreSQL no longer has (a deleted code keeps its rows in ClickHouse), ClickHouse is asked
   * again without them. The top codes' names, short codes and types come from PostgreSQL.
   */
  async accountAggregate(accountId: AccountId, filter: AccountScanFilter, window: ScanWindow): Promise<AccountScanAggregates> {
    const starts = planScanWindow(window).starts;
    const cells = bucketCells(
      starts.map((start) => start.getTime()),
      window.to.getTime(),
    );
    const account = this.database.read.forAccount(accountId);
    let rows: AggregateRow[];
    if (filter.folderId !== undefined || filter.type !== undefined || filter.tagId !== undefined || account.folderIds !== null) {
      let allowed = account.selectFrom('qr_codes').select('id');
      if (filter.folderId) allowed = allowed.where('folder_id', '=', filter.folderId);
      if (filter.type) allowed = allowed.where('type', '=', filter.type);
      if (filter.tagId) allowed = allowed.where(sql<boolean>`tag_ids @> ARRAY[${filter.tagId}]::uuid[]`);
      const ids = (await allowed.limit(MAX_LISTED_CODES + 1).execute()).map((row) => row.id as string);
      if (ids.length > MAX_LISTED_CODES) throw new ClickHouseDeclined(`more than ${MAX_LISTED_CODES} codes to list`);
      if (ids.length === 0) return { ...this.commonAnswer(null, starts), topCodes: [] };
      rows = await this.select(this.accountParts(accountId, window, cells, { only: ids }));
    } else {
      rows = await this.select(this.accountParts(accountId, window, cells, 'all'));
      const scannedIds = rows.filter((row) => row.kind === 'code').map((row) => row.value);
      if (scannedIds.length > 0) {
        const known = await account
          .selectFrom('qr_codes')
          .select('id')
          .where(sql<boolean>`id = ANY(${scannedIds}::uuid[])`)
          .execute();
        const live = new Set(known.map((row) => row.id as string));
        const gone = scannedIds.filter((id) => !live.has(id));
        if (gone.length > 0) rows = await this.select(this.accountParts(accountId, window, cells, { except: gone }));
      }
    }
    const scanned = rows
      .filter((row) => row.kind === 'code')
      .map((row) => ({ codeId: row.value, scans: count(row.scans) }))
      .filter((code) => code.scans > 0)
      .sort((a, b) => b.scans - a.scans || (a.codeId < b.codeId ? -1 : 1))
      .slice(0, BREAKDOWN_TOP);
    const topCodes: TopCode[] = [];
    if (scanned.length > 0) {
      const details = await account
        .selectFrom('qr_codes')
        .select(['id', 'name', 'short_code', 'type'])
        .where(
          'id',
          'in',
          scanned.map((code) => code.codeId as QrCodeId),
        )
        .execute();
      const byId = new Map(details.map((code) => [code.id as string, code]));
      for (const { codeId, scans } of scanned) {
        // A code deleted since the statement read its scans is left out.
        const code = byId.get(codeId);
        if (code) topCodes.push({ codeId: code.id, name: code.name, shortCode: code.short_code, type: code.type, scans });
      }
    }
    return {
      ...this.commonAnswer(
        rows.filter((row) => row.kind !== 'code'),
        starts,
      ),
      topCodes,
    };
  }

  /** The window's rows of the account, to the millisecond: the seconds bound the sort key's range. */
  private windowWhere(accountId: AccountId, window: ScanWindow): string {
    const fromMs = window.from.getTime();
    const toMs = window.to.getTime();
    return (
      `account_id = ${uuidLiteral(accountId)} ` +
      `AND scanned_at >= toDateTime(${integerLiteral(Math.floor(fromMs / 1000))}) ` +
      `AND scanned_at <= toDateTime(${integerLiteral(Math.floor((toMs - 1) / 1000))}) ` +
      `AND scanned_at_ms >= ${integerLiteral(fromMs)} AND scanned_at_ms < ${integerLiteral(toMs)}`
    );
  }

  /**
   * The account-wide statement's parts: a visitor counts once per code (distinct pairs of code and
   * hash, as PostgreSQL's account rollups add codes' visitors), and every scanned code's human and
   * bot scans (the top codes, and how codes PostgreSQL no longer has are found).
   */
  private accountParts(accountId: AccountId, window: ScanWindow, cells: BucketCells, scope: CodeScope): string[] {
    let where = this.windowWhere(accountId, window);
    if (scope !== 'all' && 'only' in scope) where += ` AND qr_code_id IN ${uuidSet(scope.only)}`;
    if (scope !== 'all' && 'except' in scope) where += ` AND qr_code_id NOT IN (${uuidList(scope.except)})`;
    return [
      ...this.commonParts(where, cells, 'qr_code_id, visitor_hash'),
      `SELECT 'code' AS kind, toInt64(0) AS bucket, toString(qr_code_id) AS value, '' AS place, countIf(is_bot = 0) AS scans,
         toUInt64(0) AS uniques, countIf(is_bot = 1) AS bots FROM ${this.table} WHERE ${where} GROUP BY value`,
    ];
  }

  /** Totals, the series (by bucket index) and the breakdowns of the rows `where` selects; `visitor` is what uniqExact counts. */
  private commonParts(where: string, cells: BucketCells, visitor: string): string[] {
    return [
      `SELECT 'totals' AS kind, toInt64(0) AS bucket, '' AS value, '' AS place, countIf(is_bot = 0) AS scans,
         uniqExactIf(${visitor}, is_bot = 0) AS uniques, countIf(is_bot = 1) AS bots FROM ${this.table} WHERE ${where}`,
      `SELECT 'series' AS kind, toInt64(${bucketIndexSql(cells, 'scanned_at_ms')}) AS bucket, '' AS value, '' AS place, count() AS scans,
         uniqExact(${visitor}) AS uniques, toUInt64(0) AS bots FROM ${this.table} WHERE ${where} AND is_bot = 0 GROUP BY bucket`,
      ...BREAKDOWN_DIMENSIONS.map(
        (dimension) =>
          `SELECT '${dimension}' AS kind, toInt64(0) AS bucket, ${BREAKDOWN_COLUMN[dimension]} AS value, '' AS place, count() AS scans,
             toUInt64(0) AS uniques, toUInt64(0) AS bots FROM ${this.table} WHERE ${where} AND is_bot = 0
           GROUP BY value ORDER BY scans DESC, value LIMIT ${BREAKDOWN_TOP}`,
      ),
      `SELECT 'country' AS kind, toInt64(0) AS bucket, ifNull(toString(country), '${UNKNOWN_COUNTRY}') AS value, '' AS place, count() AS scans,
         toUInt64(0) AS uniques, toUInt64(0) AS bots FROM ${this.table} WHERE ${where} AND is_bot = 0
       GROUP BY value ORDER BY scans DESC, value LIMIT ${BREAKDOWN_TOP}`,
      // A city's name alone is ambiguous (Paris, FR and Paris, US): counted per country, as in PostgreSQL.
      `SELECT 'city' AS kind, toInt64(0) AS bucket, assumeNotNull(city) AS value, ifNull(toString(country), '') AS place, count() AS scans,
         toUInt64(0) AS uniques, toUInt64(0) AS bots FROM ${this.table} WHERE ${where} AND is_bot = 0 AND city IS NOT NULL
       GROUP BY value, place ORDER BY scans DESC, value, place LIMIT ${BREAKDOWN_TOP}`,
    ];
  }

  private select(parts: string[]): Promise<AggregateRow[]> {
    return this.clickhouse.select<AggregateRow>(
      parts.map((part) => `SELECT kind, bucket, value, place, scans, uniques, bots FROM (${part})`).join(' UNION ALL '),
      this.queryTimeoutMs,
    );
  }

  /**
   * Totals, series and breakdowns from commonParts' rows (null: no rows were read, all zero),
   * checked: an answer that does not fit (garbled, truncated) throws rather than being shown.
   */
  private commonAnswer(rows: AggregateRow[] | null, starts: readonly Date[]): ScanBreakdowns & Pick<ScanAggregates, 'totals' | 'series'> {
    const series = starts.map((start) => ({ start, scans: 0, uniqueVisitors: 0 }));
    const breakdowns = Object.fromEntries(BREAKDOWN_DIMENSIONS.map((dimension) => [dimension, [] as Array<{ value: string; scans: number }>]));
    const byCountry: ScanAggregates['byCountry'] = [];
    const byCity: ScanAggregates['byCity'] = [];
    if (!rows)
      return {
        totals: { scans: 0, uniqueVisitors: 0, botScans: 0 },
        series,
        breakdowns: breakdowns as ScanAggregates['breakdowns'],
        byCountry,
        byCity,
      };
    const totals = rows.filter((row) => row.kind === 'totals');
    if (totals.length !== 1) throw new Error(`ClickHouse answered ${totals.length} totals rows`);
    for (const row of rows) {
      if (row.kind === 'totals') continue;
      if (row.kind === 'country' && typeof row.value === 'string') byCountry.push({ value: row.value, scans: count(row.scans) });
      else if (row.kind === 'city' && typeof row.value === 'string')
        byCity.push({ value: row.value, country: typeof row.place === 'string' && row.place !== '' ? row.place : null, scans: count(row.scans) });
      else if (row.kind === 'series') {
        const bucket = series[count(row.bucket)] as (typeof series)[number] | undefined;
        if (!bucket) throw new Error(`ClickHouse answered a bucket outside the window: ${String(row.bucket).slice(0, 40)}`);
        bucket.scans = count(row.scans);
        bucket.uniqueVisitors = count(row.uniques);
      } else if (row.kind in breakdowns && typeof row.value === 'string') {
        breakdowns[row.kind].push({ value: row.value, scans: count(row.scans) });
      } else throw new Error(`ClickHouse answered a row of no known kind: ${String(row.kind).slice(0, 40)}`);
    }
    // UNION ALL keeps no order between its parts; within one breakdown, ORDER BY's order is kept, and restated here.
    for (const list of [...Object.values(breakdowns), byCountry]) list.sort((a, b) => b.scans - a.scans || byBytes(a.value, b.value));
    byCity.sort((a, b) => b.scans - a.scans || byBytes(a.value, b.value) || byBytes(a.country ?? '', b.country ?? ''));
    return {
      totals: { scans: count(totals[0].scans), uniqueVisitors: count(totals[0].uniques), botScans: count(totals[0].bots) },
      series,
      breakdowns: breakdowns as ScanAggregates['breakdowns'],
      byCountry,
      byCity,
    };
  }
}
