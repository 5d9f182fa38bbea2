import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { Database } from '../infra/database/database.service';
import type { ScanAnalyticsReader } from './scan-analytics-reader';
import type { ScanInterval, ScanWindow } from './scan-range';

export const BREAKDOWN_DIMENSIONS = ['device', 'os', 'browser', 'referrer'] as const;
export type BreakdownDimension = (typeof BREAKDOWN_DIMENSIONS)[number];
/** Values listed per breakdown dimension. */
export const BREAKDOWN_TOP = 10;

/** The value of `by_country` for scans whose country is not known. */
export const UNKNOWN_COUNTRY = 'unknown';

export interface ScanAggregates {
  totals: { scans: number; uniqueVisitors: number; botScans: number };
  series: Array<{ start: Date; scans: number; uniqueVisitors: number }>;
  breakdowns: Record<BreakdownDimension, Array<{ value: string; scans: number }>>;
  /** Top countries (UNKNOWN_COUNTRY for scans of no known country). */
  byCountry: Array<{ value: string; scans: number }>;
  /** Top known cities, each with its country (city names repeat across countries). */
  byCity: Array<{ value: string; country: string | null; scans: number }>;
  /** Scans each smart-link rule answered (its index in the code's rules), most first. */
  byRule: Array<{ rule: number; scans: number }>;
  /** Scans each split arm answered, per rule. */
  byArm: Array<{ rule: number; arm: number; scans: number }>;
}

const STEP: Record<ScanInterval, string> = { hour: '1 hour', day: '1 day', week: '1 week' };

/**
 * Host of an absolute URL (`scheme://[userinfo@]host[:port]...`), IPv6 literals in brackets; the
 * first capturing group is what `substring(... FROM pattern)` returns.
 */
const REFERRER_HOST = '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?(\\[[^]/?#]*\\]|[^/?#:]+)';

/**
 * A referrer as the breakdown names it, in SQL over a referrer column: its host, "direct" without
 * one, "other" when it names no host (the expression of the query below). The ClickHouse export
 * stores it computed by PostgreSQL, so both engines group alike.
 */
export const referrerHostSql = (column: string): string =>
  `CASE WHEN ${column} IS NULL OR btrim(${column}) = '' THEN 'direct' ` +
  `ELSE coalesce(lower(substring(${column} FROM '${REFERRER_HOST}')), 'other') END`;

type Row = {
  kind: 'totals' | 'series' | BreakdownDimension | 'country' | 'city' | 'rule' | 'arm';
  start: Date | string | null;
  value: string | null;
  /** The city's country (kind 'city'). */
  country: string | null;
  scans: bigint | number;
  unique_visitors: bigint | number | null;
  bot_scans: bigint | number | null;
};

/** Scan analytics SQL. The code's account is part of the query: another account's code yields nothing. */
@Injectable()
export class ScanAnalyticsRepository implements ScanAnalyticsReader {
  constructor(private readonly database: Database) {}

  /**
   * Totals, the zero-filled series and the breakdowns of one code's stored scans with
   * `from <= scanned_at < to`, in one statement (one round trip, one snapshot, so the series adds
   * up to the totals). Buckets are `date_trunc` in UTC whatever the session time zone (week = ISO
   * week from Monday). Returns null when the account has no such code.
   */
  async aggregate(accountId: AccountId, codeId: QrCodeId, window: ScanWindow): Promise<ScanAggregates | null> {
    const from = window.from.toISOString();
    const to = window.to.toISOString();
    // Scans are stored to the millisecond: the last bucket is the one holding the last instant before `to`.
    const last = new Date(window.to.getTime() - 1).toISOString();
    const unit = window.interval;
    const codes = this.database.read.forAccount(accountId);
    const owned = codes.selectFrom('qr_codes').select('id').where('id', '=', codeId);
    const rows = await codes.execute(sql<Row>`
      WITH owned AS (${owned}),
      hits AS (
        SELECT s.scanned_at, s.visitor_hash, s.is_bot, s.device, s.os, s.browser, s.referrer, s.country, s.city, s.rule_index, s.arm_index
        FROM scan_events s
        JOIN owned ON owned.id = s.qr_code_id
        WHERE s.qr_code_id = ${codeId}::uuid AND s.scanned_at >= ${from}::timestamptz AND s.scanned_at < ${to}::timestamptz
      ),
      counted AS (
        SELECT date_trunc(${unit}::text, scanned_at, 'UTC') AS bucket, visitor_hash, device::text, os::text, browser::text, referrer::text,
          country::text, city::text, rule_index, arm_index
        FROM hits WHERE NOT is_bot
      ),
      buckets AS (
        -- Stepped in UTC wall-clock time, so a DST session time zone cannot shift the buckets.
        SELECT generate_series(
          date_trunc(${unit}::text, ${from}::timestamptz, 'UTC') AT TIME ZONE 'UTC',
          date_trunc(${unit}::text, ${last}::timestamptz, 'UTC') AT TIME ZONE 'UTC',
          ${STEP[unit]}::interval
        ) AT TIME ZONE 'UTC' AS start
        FROM owned
      ),
      ranked AS (
        SELECT dimension, value, place_country, scans,
          row_number() OVER (PARTITION BY dimension ORDER BY scans DESC, value COLLATE "C", place_country COLLATE "C") AS rank
        FROM (
          SELECT 'device' AS dimension, device AS value, NULL::text AS place_country, count(*) AS scans FROM counted GROUP BY device
          UNION ALL SELECT 'os', os, NULL, count(*) FROM counted GROUP BY os
          UNION ALL SELECT 'browser', browser, NULL, count(*) FROM counted GROUP BY browser
          UNION ALL SELECT 'country', coalesce(country, ${UNKNOWN_COUNTRY}::text), NULL, count(*) FROM counted GROUP BY country
          -- A city's name alone is ambiguous (Paris, FR and Paris, US): counted per country.
          UNION ALL SELECT 'city', city, country, count(*) FROM counted WHERE city IS NOT NULL GROUP BY city, country
          -- Smart-link rules and split arms (docs/smart-links.md): an arm is counted per rule (its index rides in place_country).
          UNION ALL SELECT 'rule', rule_index::text, NULL, count(*) FROM counted WHERE rule_index IS NOT NULL GROUP BY rule_index
          UNION ALL SELECT 'arm', arm_index::text, rule_index::text, count(*) FROM counted WHERE arm_index IS NOT NULL GROUP BY rule_index, arm_index
          -- The host is taken once per distinct referrer, not per scan (a regex per row is the costliest step).
          UNION ALL SELECT 'referrer', host, NULL, sum(n)::bigint FROM (
            SELECT count(*) AS n,
              CASE WHEN referrer IS NULL OR btrim(referrer) = '' THEN 'direct'
                   ELSE coalesce(lower(substring(referrer FROM ${REFERRER_HOST}::text)), 'other') END AS host
            FROM counted GROUP BY referrer
          ) referrers GROUP BY host
        ) grouped
      )
      SELECT 'totals' AS kind, NULL::timestamptz AS start, NULL::text AS value, NULL::text AS country, NULL::bigint AS rank,
        t.scans, t.unique_visitors, t.bot_scans
      FROM owned, LATERAL (
        SELECT count(*) FILTER (WHERE NOT is_bot) AS scans,
          count(DISTINCT visitor_hash) FILTER (WHERE NOT is_bot) AS unique_visitors,
          count(*) FILTER (WHERE is_bot) AS bot_scans
        FROM hits
      ) t
      UNION ALL
      SELECT 'series', b.start, NULL, NULL, NULL, count(c.bucket), count(DISTINCT c.visitor_hash), NULL
      FROM buckets b LEFT JOIN counted c ON c.bucket = b.start
      GROUP BY b.start
      UNION ALL
      SELECT dimension, NULL, value, place_country, rank, scans, NULL, NULL FROM ranked WHERE rank <= ${BREAKDOWN_TOP}
      ORDER BY kind, start, rank`);

    const totals = rows.find((row) => row.kind === 'totals');
    if (!totals) return null;
    const breakdowns = Object.fromEntries(
      BREAKDOWN_DIMENSIONS.map((dimension) => [dimension, [] as Array<{ value: string; scans: number }>]),
    ) as ScanAggregates['breakdowns'];
    const series: ScanAggregates['series'] = [];
    const byCountry: ScanAggregates['byCountry'] = [];
    const byCity: ScanAggregates['byCity'] = [];
    const byRule: ScanAggregates['byRule'] = [];
    const byArm: ScanAggregates['byArm'] = [];
    for (const row of rows) {
      if (row.kind === 'series')
        series.push({ start: new Date(row.start as Date | string), scans: Number(row.scans), uniqueVisitors: Number(row.unique_visitors) });
      else if (row.kind === 'country') byCountry.push({ value: row.value as string, scans: Number(row.scans) });
      else if (row.kind === 'city') byCity.push({ value: row.value as string, country: row.country, scans: Number(row.scans) });
      else if (row.kind === 'rule') byRule.push({ rule: Number(row.value), scans: Number(row.scans) });
      else if (row.kind === 'arm') byArm.push({ rule: Number(row.country), arm: Number(row.value), scans: Number(row.scans) });
      else if (row.kind !== 'totals') breakdowns[row.kind].push({ value: row.value as string, scans: Number(row.scans) });
    }
    return {
      totals: { scans: Number(totals.scans), uniqueVisitors: Number(totals.unique_visitors), botScans: Number(totals.bot_scans) },
      series,
      breakdowns,
      byCountry,
      byCity,
      byRule,
      byArm,
    };
  }
}
