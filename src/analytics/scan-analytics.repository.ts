import { Injectable } from '@nestjs/common';
import { sql, type RawBuilder } from 'kysely';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { Database } from '../infra/database/database.service';
import type { QrCodeRecord } from '../qrcodes/qr-code.record';
import type { AccountTables } from '../infra/database/tables';
import {
  type AccountScanAggregates,
  type AccountScanFilter,
  BREAKDOWN_DIMENSIONS,
  BREAKDOWN_TOP,
  type ScanAggregates,
  type ScanBreakdowns,
  type TopCode,
  UNKNOWN_COUNTRY,
} from './scan-aggregates';
import type { ScanAnalyticsReader } from './scan-analytics-reader';
import type { ScanWindow } from './scan-range';
import { planScanWindow, type ScanWindowPlan } from './scan-window-plan';

/**
 * A referrer as the breakdown names it, in SQL over a referrer column: its host, "direct" without
 * one, "other" when it names no host (the migration's scan_referrer_host). The ClickHouse export
 * stores it computed by PostgreSQL, so both engines group alike.
 */
export const referrerHostSql = (column: string): string => `scan_referrer_host(${column})`;

/**
 * The dimension values of the human scans among raw scan rows (a relation with scan_events' columns)
 * as the rollups hold them (migration 20261127090000): rows dimension, value, detail, scans; a
 * referrer's host is taken once per distinct referrer, not per scan (a regex per row costs most).
 */
export function rawDimensionValues(rows: RawBuilder<unknown>) {
  return sql`SELECT dimension, CASE WHEN dimension = 'referrer' THEN scan_referrer_host(value) ELSE value END AS value, detail, scans
    FROM (
      SELECT x.dimension, x.value, x.detail, count(*) AS scans
      FROM (${rows}) s CROSS JOIN LATERAL (VALUES
        ('device', s.device::text, ''), ('os', s.os::text, ''), ('browser', s.browser::text, ''),
        ('referrer', s.referrer::text, ''), ('country', coalesce(s.country::text, ${UNKNOWN_COUNTRY}::text), ''),
        ('city', s.city::text, coalesce(s.country::text, '')), ('rule', s.rule_index::text, ''),
        ('arm', s.arm_index::text, coalesce(s.rule_index::text, ''))
      ) AS x(dimension, value, detail)
      WHERE NOT s.is_bot AND (x.value IS NOT NULL OR x.dimension = 'referrer')
      GROUP BY 1, 2, 3
    ) grouped`;
}

/** The plan's rolled days and raw ranges as SQL arrays. */
export function planArrays(plan: ScanWindowPlan) {
  return {
    days: plan.days.map((day) => day.day),
    dayBuckets: plan.days.map((day) => day.bucket),
    firstDay: plan.days[0]?.day ?? '1970-01-01',
    lastDay: plan.days.at(-1)?.day ?? '1970-01-01',
    rawFrom: plan.raw.map((range) => range.from.toISOString()),
    rawTo: plan.raw.map((range) => range.to.toISOString()),
    rawBuckets: plan.raw.map((range) => range.bucket),
    rawFirstDay: plan.raw[0]?.from.toISOString().slice(0, 10) ?? '1970-01-01',
    rawLastDay: plan.raw.length ? new Date(Math.max(...plan.raw.map((range) => range.to.getTime() - 1))).toISOString().slice(0, 10) : '1970-01-01',
  };
}

/** One row of an analytics statement's answer. */
export type AnalyticsRow = {
  kind: 'totals' | 'series' | 'value';
  bucket: number | null;
  dimension: string | null;
  value: string | null;
  detail: string | null;
  scans: bigint | number | string;
  unique_visitors: bigint | number | string | null;
  bot_scans: bigint | number | string | null;
};

/** The ranked dimension values of a statement's answer (rows of kind 'value') as the breakdowns of the API. */
export function breakdownsOf(rows: readonly AnalyticsRow[]): ScanBreakdowns & Pick<ScanAggregates, 'byRule' | 'byArm'> {
  const breakdowns = Object.fromEntries(
    BREAKDOWN_DIMENSIONS.map((dimension) => [dimension, [] as Array<{ value: string; scans: number }>]),
  ) as ScanBreakdowns['breakdowns'];
  const result: ScanBreakdowns & Pick<ScanAggregates, 'byRule' | 'byArm'> = { breakdowns, byCountry: [], byCity: [], byRule: [], byArm: [] };
  // In the ranking's order (rankedValues), made explicit: a UNION's rows come in no promised order.
  const bytes = (text: string | null) => Buffer.from(text ?? '');
  const ranked = rows
    .filter((row) => row.kind === 'value')
    .sort(
      (x, y) =>
        Number(y.scans) - Number(x.scans) || Buffer.compare(bytes(x.value), bytes(y.value)) || Buffer.compare(bytes(x.detail), bytes(y.detail)),
    );
  for (const row of ranked) {
    const value = row.value as string;
    const scans = Number(row.scans);
    if (row.dimension === 'country') result.byCountry.push({ value, scans });
    else if (row.dimension === 'city') result.byCity.push({ value, country: row.detail || null, scans });
    else if (row.dimension === 'rule') result.byRule.push({ rule: Number(value), scans });
    else if (row.dimension === 'arm') result.byArm.push({ rule: Number(row.detail), arm: Number(value), scans });
    else breakdowns[row.dimension as keyof typeof breakdowns].push({ value, scans });
  }
  return result;
}

/** The zero-filled series of a statement's answer (rows of kind 'series', by bucket index). */
export function seriesOf(rows: readonly AnalyticsRow[], plan: ScanWindowPlan): ScanAggregates['series'] {
  const series = plan.starts.map((start) => ({ start, scans: 0, uniqueVisitors: 0 }));
  for (const row of rows)
    if (row.kind === 'series') {
      const bucket = series[row.bucket as number];
      bucket.scans += Number(row.scans);
      bucket.uniqueVisitors += Number(row.unique_visitors);
    }
  return series;
}

/**
 * Ranks dimension values (rows dimension, value, detail, scans of `values`) per dimension: most
 * scans first, ties by the value's bytes (as ClickHouse orders them); the top BREAKDOWN_TOP of each.
 */
export function rankedValues(values: RawBuilder<unknown>) {
  return sql`SELECT 'value' AS kind, NULL::int AS bucket, dimension, value, detail, scans, NULL::bigint AS unique_visitors, NULL::bigint AS bot_scans
    FROM (
      SELECT dimension, value, detail, scans,
        row_number() OVER (PARTITION BY dimension ORDER BY scans DESC, value COLLATE "C", detail COLLATE "C") AS rank
      FROM (
        SELECT dimension, value, detail, sum(scans) AS scans FROM (${values}) v GROUP BY 1, 2, 3
      ) summed
      WHERE scans > 0
    ) ranked WHERE rank <= ${BREAKDOWN_TOP}`;
}

/** Scan analytics SQL. The code's account is part of the query: another account's code yields nothing. */
@Injectable()
export class ScanAnalyticsRepository implements ScanAnalyticsReader {
  constructor(private readonly database: Database) {}

  /**
   * Totals, the zero-filled series and the breakdowns of one code's stored scans with
   * `from <= scanned_at < to`, in one statement (one snapshot, so the series adds up to the totals):
   * whole UTC days from the daily rollups, the rest from raw events (planScanWindow). Returns null
   * when the account has no such code.
   */
  async aggregate(accountId: AccountId, codeId: QrCodeId, window: ScanWindow): Promise<ScanAggregates | null> {
    const plan = planScanWindow(window);
    const a = planArrays(plan);
    const codes = this.database.read.forAccount(accountId);
    const owned = codes.selectFrom('qr_codes').select('id').where('id', '=', codeId);
    const rows = await codes.execute(sql<AnalyticsRow>`
      WITH owned AS (${owned}),
      days AS (SELECT * FROM unnest(${a.days}::date[], ${a.dayBuckets}::int[]) AS d(day, bucket)),
      ranges AS (SELECT * FROM unnest(${a.rawFrom}::timestamptz[], ${a.rawTo}::timestamptz[], ${a.rawBuckets}::int[]) AS r(from_at, to_at, bucket)),
      rolled AS (
        SELECT d.bucket, c.scans, c.bot_scans, c.unique_visitors
        FROM owned JOIN scan_code_days c ON c.qr_code_id = owned.id JOIN days d ON d.day = c.day
        WHERE c.day >= ${a.firstDay}::date AND c.day <= ${a.lastDay}::date
      ),
      raw AS (
        -- A range scan of the primary key per range (OFFSET 0 keeps it one: joined flat, the planner
        -- reads every row of the code and filters them by the ranges).
        SELECT r.bucket, s.*
        FROM owned, ranges r CROSS JOIN LATERAL (
          SELECT * FROM scan_events s WHERE s.qr_code_id = ${codeId}::uuid AND s.scanned_at >= r.from_at AND s.scanned_at < r.to_at OFFSET 0
        ) s
      ),
      dimension_values AS (
        SELECT v.dimension, v.value, v.detail, sum(v.scans) AS scans
        FROM scan_code_day_values v
        -- The rolled days as a filter, not a join: one range scan of the key, summed by hash (a join
        -- to the days made the planner expect few rows and sort tens of thousands).
        WHERE v.qr_code_id = ${codeId}::uuid AND EXISTS (SELECT 1 FROM owned)
          AND v.day >= ${a.firstDay}::date AND v.day <= ${a.lastDay}::date AND v.day = ANY(${a.days}::date[])
        GROUP BY 1, 2, 3
        UNION ALL
        ${rawDimensionValues(sql`SELECT * FROM raw`)}
      )
      SELECT 'totals' AS kind, NULL::int AS bucket, NULL::text AS dimension, NULL::text AS value, NULL::text AS detail,
        (SELECT coalesce(sum(scans), 0) FROM rolled) + (SELECT count(*) FILTER (WHERE NOT is_bot) FROM raw) AS scans,
        (SELECT coalesce(sum(unique_visitors), 0) FROM rolled)
          + (SELECT count(DISTINCT visitor_hash) FILTER (WHERE NOT is_bot) FROM raw) AS unique_visitors,
        (SELECT coalesce(sum(bot_scans), 0) FROM rolled) + (SELECT count(*) FILTER (WHERE is_bot) FROM raw) AS bot_scans
      FROM owned
      UNION ALL
      SELECT 'series', bucket, NULL, NULL, NULL, sum(scans), sum(unique_visitors), NULL
      FROM (
        SELECT bucket, scans::bigint, unique_visitors::bigint FROM rolled
        UNION ALL
        -- Visitor hashes are per UTC day: distinct within a bucket is the sum of its days' distinct.
        SELECT bucket, count(*) FILTER (WHERE NOT is_bot), count(DISTINCT visitor_hash) FILTER (WHERE NOT is_bot) FROM raw GROUP BY bucket
      ) buckets GROUP BY bucket
      UNION ALL
      ${rankedValues(sql`SELECT * FROM dimension_values`)}`);

    const totals = rows.find((row) => row.kind === 'totals');
    if (!totals) return null;
    return {
      totals: { scans: Number(totals.scans), uniqueVisitors: Number(totals.unique_visitors), botScans: Number(totals.bot_scans) },
      series: seriesOf(rows, plan),
      ...breakdownsOf(rows),
    };
  }

  /** The code's smart-link rules as stored (their names: rule-names.ts), or null when the account has no such code. */
  async linkRulesOf(accountId: AccountId, codeId: QrCodeId): Promise<QrCodeRecord['rules'] | null> {
    const code = await this.database.read
      .forAccount(accountId)
      .selectFrom('qr_codes')
      .select('link_rules')
      .where('id', '=', codeId)
      .executeTakeFirst();
    return code ? ((code.link_rules as QrCodeRecord['rules'] | null) ?? []) : null;
  }

  /**
   * Unique visitors of each of the account's codes among `codeIds` with `from <= scanned_at < to`,
   * as the totals of GET /qrcodes/:id/scans count them (each UTC day's distinct visitors, summed):
   * whole days from the rollups, the window's edges from raw events. Codes without scans are absent.
   */
  async uniqueVisitorsOf(accountId: AccountId, codeIds: readonly QrCodeId[], window: ScanWindow): Promise<Map<QrCodeId, number>> {
    if (codeIds.length === 0) return new Map();
    const a = planArrays(planScanWindow(window));
    const codes = this.database.read.forAccount(accountId);
    const owned = codes.selectFrom('qr_codes').select('id').where('id', 'in', codeIds);
    const rows = await codes.execute(sql<{ id: QrCodeId; unique_visitors: string }>`
      WITH owned AS (${owned}),
      ranges AS (SELECT * FROM unnest(${a.rawFrom}::timestamptz[], ${a.rawTo}::timestamptz[]) AS r(from_at, to_at)),
      counted AS (
        SELECT c.qr_code_id AS id, c.unique_visitors::bigint AS n
        FROM scan_code_days c JOIN owned ON owned.id = c.qr_code_id
        WHERE c.day >= ${a.firstDay}::date AND c.day <= ${a.lastDay}::date AND c.day = ANY(${a.days}::date[])
        UNION ALL
        SELECT owned.id, (
          SELECT count(DISTINCT s.visitor_hash) FILTER (WHERE NOT s.is_bot) FROM scan_events s
          WHERE s.qr_code_id = owned.id AND s.scanned_at >= r.from_at AND s.scanned_at < r.to_at
        ) FROM owned, ranges r
      )
      SELECT id, sum(n) AS unique_visitors FROM counted GROUP BY id`);
    return new Map(rows.map((row) => [row.id, Number(row.unique_visitors)]));
  }

  /**
   * The same over every code of the account in the filter's folder and type (and in the request's
   * key's folders), plus the top codes by scans: whole UTC days from the account's rollups, the rest
   * from raw events of those codes, in one statement; the top codes in their own (topCodes).
   */
  async accountAggregate(accountId: AccountId, filter: AccountScanFilter, window: ScanWindow): Promise<AccountScanAggregates> {
    const plan = planScanWindow(window);
    const a = planArrays(plan);
    const account = this.database.read.forAccount(accountId);
    const codes = codesIn(account, filter);
    const days = filter.tagId ? codeDaysOf(account, a) : accountDaysOf(account, filter, a);
    // The account's value rows know no folder or type: narrowed (by the filter or the key's folders), the codes' own rows are summed.
    const whole = !filter.folderId && !filter.type && !filter.tagId && account.folderIds === null;
    const values = whole
      ? sql`SELECT v.day, v.dimension, v.value, v.detail, v.scans FROM (${account
          .selectFrom('scan_account_day_values')
          .select(['day', 'dimension', 'value', 'detail', 'scans'])
          .where(sql<boolean>`day >= ${a.firstDay}::date AND day <= ${a.lastDay}::date`)}) v`
      : sql`SELECT v.day, v.dimension, v.value, v.detail, v.scans FROM scan_code_day_values v
          WHERE v.qr_code_id IN (SELECT id FROM codes) AND v.day >= ${a.firstDay}::date AND v.day <= ${a.lastDay}::date`;
    const activeCodeDays = account
      .selectFrom('scan_code_days')
      .select(['qr_code_id', 'day'])
      .where(sql<boolean>`day >= ${a.rawFirstDay}::date AND day <= ${a.rawLastDay}::date`);
    const rows = await account.execute(sql<AnalyticsRow>`
      WITH codes AS (${codes}),
      days AS (SELECT * FROM unnest(${a.days}::date[], ${a.dayBuckets}::int[]) AS d(day, bucket)),
      ranges AS (SELECT * FROM unnest(${a.rawFrom}::timestamptz[], ${a.rawTo}::timestamptz[], ${a.rawBuckets}::int[]) AS r(from_at, to_at, bucket)),
      -- Summed per day first: a day has a row per folder and type in use, and the totals read this thrice.
      rolled AS (
        SELECT d.bucket, r.scans, r.bot_scans, r.unique_visitors
        FROM (SELECT day, sum(scans) AS scans, sum(bot_scans) AS bot_scans, sum(unique_visitors) AS unique_visitors FROM (${days}) r GROUP BY day) r
        JOIN days d ON d.day = r.day
      ),
      -- The codes to read raw scans of, per range: those with a rollup row on a day the range touches
      -- (a code's rows and its rollups are written together), not every code of the account.
      probes AS (
        SELECT DISTINCT r.bucket, r.from_at, r.to_at, c.qr_code_id
        FROM ranges r JOIN (${activeCodeDays}) c
          ON c.day >= (r.from_at AT TIME ZONE 'UTC')::date AND c.day <= ((r.to_at - INTERVAL '1 millisecond') AT TIME ZONE 'UTC')::date
        WHERE c.qr_code_id IN (SELECT id FROM codes)
      ),
      raw AS (
        SELECT p.bucket, s.*
        FROM probes p CROSS JOIN LATERAL (
          SELECT * FROM scan_events s WHERE s.qr_code_id = p.qr_code_id AND s.scanned_at >= p.from_at AND s.scanned_at < p.to_at OFFSET 0
        ) s
      ),
      dimension_values AS (
        SELECT v.dimension, v.value, v.detail, sum(v.scans) AS scans FROM (${values}) v WHERE v.day = ANY(${a.days}::date[]) GROUP BY 1, 2, 3
        UNION ALL
        ${rawDimensionValues(sql`SELECT * FROM raw`)}
      )
      SELECT 'totals' AS kind, NULL::int AS bucket, NULL::text AS dimension, NULL::text AS value, NULL::text AS detail,
        (SELECT coalesce(sum(scans), 0) FROM rolled) + (SELECT count(*) FILTER (WHERE NOT is_bot) FROM raw) AS scans,
        (SELECT coalesce(sum(unique_visitors), 0) FROM rolled)
          + (SELECT count(DISTINCT (qr_code_id, visitor_hash)) FILTER (WHERE NOT is_bot) FROM raw) AS unique_visitors,
        (SELECT coalesce(sum(bot_scans), 0) FROM rolled) + (SELECT count(*) FILTER (WHERE is_bot) FROM raw) AS bot_scans
      UNION ALL
      SELECT 'series', bucket, NULL, NULL, NULL, sum(scans), sum(unique_visitors), NULL
      FROM (
        SELECT bucket, scans::bigint, unique_visitors::bigint FROM rolled
        UNION ALL
        SELECT bucket, count(*) FILTER (WHERE NOT is_bot), count(DISTINCT (qr_code_id, visitor_hash)) FILTER (WHERE NOT is_bot)
        FROM raw GROUP BY bucket
      ) buckets GROUP BY bucket
      UNION ALL
      ${rankedValues(sql`SELECT * FROM dimension_values`)}`);

    const totals = rows.find((row) => row.kind === 'totals')!;
    const { byRule: _rules, byArm: _arms, ...breakdowns } = breakdownsOf(rows);
    const topCodes = await this.topCodes(account, filter, a);
    return {
      totals: { scans: Number(totals.scans), uniqueVisitors: Number(totals.unique_visitors), botScans: Number(totals.bot_scans) },
      series: seriesOf(rows, plan),
      topCodes,
      ...breakdowns,
    };
  }

  /**
   * The codes with the most human scans in the window, exactly, without summing every code's days:
   * a code's scans in any window are at most its `scans` counter (it counts every stored human
   * scan, and erasure keeps it), so the window's scans of the codes with the largest counters are
   * summed, and the answer stands once the tenth of them beats the largest counter left out.
   * Otherwise the candidates grow (x4), and past TOP_CODE_CANDIDATES_MAX every code is summed.
   */
  private async topCodes(account: AccountTables, filter: AccountScanFilter, a: ReturnType<typeof planArrays>): Promise<TopCode[]> {
    const codes = codesIn(account, filter);
    for (let limit = TOP_CODE_CANDIDATES; ; limit *= 4) {
      const everyCode = limit > TOP_CODE_CANDIDATES_MAX;
      const pool = await (
        everyCode
          ? codes
          : codes
              .orderBy('qr_codes.scans', 'desc')
              .orderBy('qr_codes.id')
              .limit(limit + 1)
      ).execute();
      const candidates = everyCode ? pool : pool.slice(0, limit);
      // Every code is a candidate when the pool did not fill: nothing is left out.
      const leftOut = pool.length > limit ? Number(pool[limit].scans) : 0;
      const ids = candidates.map((code) => code.id);
      const counted = await account.execute(sql<{ qr_code_id: QrCodeId; scans: string | number }>`
        WITH ranges AS (SELECT * FROM unnest(${a.rawFrom}::timestamptz[], ${a.rawTo}::timestamptz[]) AS r(from_at, to_at))
        SELECT qr_code_id, sum(scans) AS scans FROM (
          -- By the codes' keys: the ids are the account's own (codesIn). Scoped by account too, the planner
          -- walks every code's rows of each day by the account's index instead.
          SELECT c.qr_code_id, c.scans::bigint FROM scan_code_days c
          WHERE c.qr_code_id = ANY(${ids}::uuid[]) AND c.day >= ${a.firstDay}::date AND c.day <= ${a.lastDay}::date AND c.day = ANY(${a.days}::date[])
          UNION ALL
          SELECT p.qr_code_id, p.scans FROM (
            SELECT DISTINCT r.from_at, r.to_at, c.qr_code_id
            FROM ranges r JOIN (${account.selectFrom('scan_code_days').select(['qr_code_id', 'day'])}) c
              ON c.day >= (r.from_at AT TIME ZONE 'UTC')::date AND c.day <= ((r.to_at - INTERVAL '1 millisecond') AT TIME ZONE 'UTC')::date
            WHERE c.qr_code_id = ANY(${ids}::uuid[])
          ) probe CROSS JOIN LATERAL (
            SELECT probe.qr_code_id, count(*) AS scans FROM scan_events s
            WHERE s.qr_code_id = probe.qr_code_id AND s.scanned_at >= probe.from_at AND s.scanned_at < probe.to_at AND NOT s.is_bot
          ) p
        ) scanned GROUP BY 1 HAVING sum(scans) > 0`);
      const byId = new Map(candidates.map((code) => [code.id, code]));
      const top = counted
        .map((row) => ({ codeId: row.qr_code_id, scans: Number(row.scans) }))
        .sort((x, y) => y.scans - x.scans || (x.codeId < y.codeId ? -1 : 1))
        .slice(0, BREAKDOWN_TOP);
      const tenth = top.length === BREAKDOWN_TOP ? top[BREAKDOWN_TOP - 1].scans : 0;
      if (everyCode || leftOut === 0 || leftOut < tenth)
        return top.map(({ codeId, scans }) => {
          const code = byId.get(codeId)!;
          return { codeId, name: code.name, shortCode: code.short_code, type: code.type, scans };
        });
    }
  }
}

/** The first candidates of the top codes, and the most before every code is summed. */
const TOP_CODE_CANDIDATES = 25;
const TOP_CODE_CANDIDATES_MAX = 6400;

/** The account's codes in the filter's folder, type and tag (and the request's key's folders). */
function codesIn(account: AccountTables, filter: AccountScanFilter) {
  let codes = account.selectFrom('qr_codes').select(['qr_codes.id', 'qr_codes.name', 'qr_codes.short_code', 'qr_codes.type', 'qr_codes.scans']);
  if (filter.folderId) codes = codes.where('qr_codes.folder_id', '=', filter.folderId);
  if (filter.type) codes = codes.where('qr_codes.type', '=', filter.type);
  if (filter.tagId) codes = codes.where(sql<boolean>`qr_codes.tag_ids @> ARRAY[${filter.tagId}]::uuid[]`);
  return codes;
}

/** The account's day rollups in the filter's folder and type (rows per day, folder and type). */
function accountDaysOf(account: AccountTables, filter: AccountScanFilter, a: ReturnType<typeof planArrays>) {
  let days = account
    .selectFrom('scan_account_days')
    .select(['day', 'scans', 'bot_scans', 'unique_visitors'])
    .where(sql<boolean>`day >= ${a.firstDay}::date AND day <= ${a.lastDay}::date`);
  if (filter.folderId) days = days.where('folder_key', '=', filter.folderId);
  if (filter.type) days = days.where('code_type', '=', filter.type);
  return days;
}

/**
 * The day rollups of the filter's codes (a tag's: the account's rollups know no tags), one row per
 * code and day; unique visitors are counted per code, so their sum is the account rollups' figure.
 */
function codeDaysOf(account: AccountTables, a: ReturnType<typeof planArrays>) {
  return account
    .selectFrom('scan_code_days')
    .select(['day', 'scans', 'bot_scans', 'unique_visitors'])
    .where(sql<boolean>`qr_code_id IN (SELECT id FROM codes) AND day >= ${a.firstDay}::date AND day <= ${a.lastDay}::date`);
}
