import { Inject, Injectable } from '@nestjs/common';
import type { AccountId } from '../../common/ids/account-id';
import type { QrCodeId } from '../../common/ids/resource-ids';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ClickHouseConnection } from '../../infra/clickhouse/clickhouse-connection';
import { integerLiteral, uuidList, uuidLiteral } from '../../infra/clickhouse/clickhouse-literals';
import { Database } from '../../infra/database/database.service';
import type { ScanAnalyticsReader } from '../scan-analytics-reader';
import { BREAKDOWN_DIMENSIONS, BREAKDOWN_TOP, type BreakdownDimension, type ScanAggregates, UNKNOWN_COUNTRY } from '../scan-aggregates';
import type { ScanWindow } from '../scan-range';
import type { ExportedScan } from './clickhouse-export-outbox.repository';
import { bucketStartSql, bucketStarts } from './scan-buckets';

/** The column each breakdown groups by in ClickHouse (the referrer's host is stored computed). */
const BREAKDOWN_COLUMN: Record<BreakdownDimension, string> = { device: 'device', os: 'os', browser: 'browser', referrer: 'referrer_host' };

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

/**
 * scan_events in ClickHouse (schema: src/infra/clickhouse/clickhouse-schema.ts): the export's
 * writes, and /scans computed there. The answers are PostgreSQL's (ScanAnalyticsRepository) for the
 * same stored scans: the same filters to the millisecond, the same UTC buckets (integer arithmetic),
 * exact unique visitors (uniqExact), breakdown ties ordered by value as bytes (as COLLATE "C").
 */
@Injectable()
export class ClickHouseScanEventsRepository implements Pick<ScanAnalyticsReader, 'aggregate'> {
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
    const owned = await this.database.read.forAccount(accountId).selectFrom('qr_codes').select('id').where('id', '=', codeId).executeTakeFirst();
    if (!owned) return null;
    const fromMs = window.from.getTime();
    const toMs = window.to.getTime();
    // The seconds bound the sort key's range; the milliseconds make the window exact.
    const where =
      `account_id = ${uuidLiteral(accountId)} AND qr_code_id = ${uuidLiteral(codeId)} ` +
      `AND scanned_at >= toDateTime(${integerLiteral(Math.floor(fromMs / 1000))}) ` +
      `AND scanned_at <= toDateTime(${integerLiteral(Math.floor((toMs - 1) / 1000))}) ` +
      `AND scanned_at_ms >= ${integerLiteral(fromMs)} AND scanned_at_ms < ${integerLiteral(toMs)}`;
    const parts = [
      `SELECT 'totals' AS kind, toInt64(0) AS bucket, '' AS value, '' AS place, countIf(is_bot = 0) AS scans,
         uniqExactIf(visitor_hash, is_bot = 0) AS uniques, countIf(is_bot = 1) AS bots FROM ${this.table} WHERE ${where}`,
      `SELECT 'series' AS kind, toInt64(${bucketStartSql(window.interval, 'scanned_at_ms')}) AS bucket, '' AS value, '' AS place, count() AS scans,
         uniqExact(visitor_hash) AS uniques, toUInt64(0) AS bots FROM ${this.table} WHERE ${where} AND is_bot = 0 GROUP BY bucket`,
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
      // Smart-link rules and split arms (docs/smart-links.md): an arm is counted per rule (its index rides in place).
      `SELECT 'rule' AS kind, toInt64(0) AS bucket, toString(assumeNotNull(rule_index)) AS value, '' AS place, count() AS scans,
         toUInt64(0) AS uniques, toUInt64(0) AS bots FROM ${this.table} WHERE ${where} AND is_bot = 0 AND rule_index IS NOT NULL
       GROUP BY value ORDER BY scans DESC, value LIMIT ${BREAKDOWN_TOP}`,
      `SELECT 'arm' AS kind, toInt64(0) AS bucket, toString(assumeNotNull(arm_index)) AS value, toString(assumeNotNull(rule_index)) AS place,
         count() AS scans, toUInt64(0) AS uniques, toUInt64(0) AS bots FROM ${this.table} WHERE ${where} AND is_bot = 0 AND arm_index IS NOT NULL
       GROUP BY value, place ORDER BY scans DESC, place, value LIMIT ${BREAKDOWN_TOP}`,
    ];
    const rows = await this.clickhouse.select<AggregateRow>(
      parts.map((part) => `SELECT kind, bucket, value, place, scans, uniques, bots FROM (${part})`).join(' UNION ALL '),
      this.queryTimeoutMs,
    );
    return this.toAggregates(rows, window);
  }

  /** The rows as ScanAggregates, checked: an answer that does not fit (garbled, truncated) throws rather than being shown. */
  private toAggregates(rows: AggregateRow[], window: ScanWindow): ScanAggregates {
    const totals = rows.filter((row) => row.kind === 'totals');
    if (totals.length !== 1) throw new Error(`ClickHouse answered ${totals.length} totals rows`);
    const series = new Map(bucketStarts(window).map((start) => [start, { start: new Date(start), scans: 0, uniqueVisitors: 0 }]));
    const breakdowns = Object.fromEntries(BREAKDOWN_DIMENSIONS.map((dimension) => [dimension, [] as Array<{ value: string; scans: number }>]));
    const byCountry: ScanAggregates['byCountry'] = [];
    const byCity: ScanAggregates['byCity'] = [];
    const byRule: ScanAggregates['byRule'] = [];
    const byArm: ScanAggregates['byArm'] = [];
    for (const row of rows) {
      if (row.kind === 'totals') continue;
      if (row.kind === 'rule') byRule.push({ rule: count(row.value), scans: count(row.scans) });
      else if (row.kind === 'arm') byArm.push({ rule: count(row.place), arm: count(row.value), scans: count(row.scans) });
      else if (row.kind === 'country' && typeof row.value === 'string') byCountry.push({ value: row.value, scans: count(row.scans) });
      else if (row.kind === 'city' && typeof row.value === 'string')
        byCity.push({ value: row.value, country: typeof row.place === 'string' && row.place !== '' ? row.place : null, scans: count(row.scans) });
      else if (row.kind === 'series') {
        const bucket = series.get(Number(row.bucket));
        if (!bucket) throw new Error(`ClickHouse answered a bucket outside the window: ${String(row.bucket).slice(0, 40)}`);
        bucket.scans = count(row.scans);
        bucket.uniqueVisitors = count(row.uniques);
      } else if (row.kind in breakdowns && typeof row.value === 'string') {
        breakdowns[row.kind].push({ value: row.value, scans: count(row.scans) });
      } else throw new Error(`ClickHouse answered a row of no known kind: ${String(row.kind).slice(0, 40)}`);
    }
    // UNION ALL keeps no order between its parts; within one breakdown, ORDER BY's order is kept, and restated here.
    // Ties by value as UTF-8 bytes, as ClickHouse and PostgreSQL's COLLATE "C" order them (not as UTF-16 units).
    const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
    for (const list of [...Object.values(breakdowns), byCountry]) list.sort((a, b) => b.scans - a.scans || byBytes(a.value, b.value));
    // Ties as PostgreSQL ranks them: by the index as text, then (arms) the rule's.
    byRule.sort((a, b) => b.scans - a.scans || byBytes(String(a.rule), String(b.rule)));
    byArm.sort((a, b) => b.scans - a.scans || byBytes(String(a.arm), String(b.arm)) || byBytes(String(a.rule), String(b.rule)));
    byCity.sort((a, b) => b.scans - a.scans || byBytes(a.value, b.value) || byBytes(a.country ?? '', b.country ?? ''));
    return {
      totals: { scans: count(totals[0].scans), uniqueVisitors: count(totals[0].uniques), botScans: count(totals[0].bots) },
      series: [...series.values()],
      breakdowns: breakdowns as ScanAggregates['breakdowns'],
      byCountry,
      byCity,
      byRule,
      byArm,
    };
  }
}
