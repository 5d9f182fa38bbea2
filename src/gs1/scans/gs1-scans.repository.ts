import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { AccountId } from '../../common/ids/account-id';
import type { Gs1ItemId } from '../../common/ids/resource-ids';
import { Database } from '../../infra/database/database.service';
import type { AccountTables } from '../../infra/database/tables';
import type { StoredGs1Scan } from './gs1-scan';

/** The window of a read: scans with from <= scanned_at < to, bucketed by interval in timeZone. */
export interface Gs1ScanWindow {
  from: Date;
  to: Date;
  interval: 'hour' | 'day' | 'week' | 'month';
  timeZone: string;
}

export interface Gs1ScanReport {
  totals: { scans: number; unique_visitors: number; bot_scans: number };
  series: Array<{ start: string; scans: number; unique_visitors: number }>;
  by_link_type: Array<{ value: string; scans: number }>;
  by_lot: Array<{ value: string; scans: number }>;
  by_serial: Array<{ value: string; scans: number }>;
  by_country: Array<{ value: string; scans: number }>;
}

const TOP = 10;
type Dimension = 'link_type' | 'lot' | 'serial' | 'country';

/** Queries of GS1 scans (gs1_scan_events and the items' `scans` counters), each through its account's tables. */
@Injectable()
export class Gs1ScansRepository {
  constructor(private readonly database: Database) {}

  /**
   * Stores a batch in one transaction: per account, the rows of its items that still exist (an item
   * deleted meanwhile takes its scans with it), and each item's non-bot scans added to its `scans`.
   */
  async store(scans: readonly StoredGs1Scan[]): Promise<void> {
    const byAccount = new Map<AccountId, StoredGs1Scan[]>();
    for (const scan of scans) byAccount.set(scan.accountId, [...(byAccount.get(scan.accountId) ?? []), scan]);
    await this.database.transaction(async (tx) => {
      for (const [accountId, rows] of [...byAccount].sort(([a], [b]) => a.localeCompare(b))) {
        const tables = tx.forAccount(accountId);
        const ids = [...new Set(rows.map((row) => row.itemId))].sort();
        const live = await tables.selectFrom('gs1_items').select('id').where('id', 'in', ids).orderBy('id').forKeyShare().execute();
        const liveIds = new Set(live.map((row) => row.id));
        const kept = rows.filter((row) => liveIds.has(row.itemId));
        if (kept.length === 0) continue;
        await tables.insertInto('gs1_scan_events', kept.map(toRow)).execute();
        await this.addToCounters(tables, kept);
      }
    });
  }

  private async addToCounters(tables: AccountTables, rows: readonly StoredGs1Scan[]): Promise<void> {
    const counts = new Map<Gs1ItemId, number>();
    for (const row of rows) if (!row.isBot) counts.set(row.itemId, (counts.get(row.itemId) ?? 0) + 1);
    for (const [id, n] of [...counts].sort(([a], [b]) => a.localeCompare(b)))
      await tables
        .updateTable('gs1_items')
        .set((eb) => ({ scans: eb('scans', '+', BigInt(n)) }))
        .where('id', '=', id)
        .execute();
  }

  /** Totals, a zero-filled series and the top values per dimension of an item's scans in the window. */
  async report(accountId: AccountId, itemId: Gs1ItemId, window: Gs1ScanWindow): Promise<Gs1ScanReport> {
    const tables = this.database.read.forAccount(accountId);
    const events = () =>
      tables.selectFrom('gs1_scan_events').where('item_id', '=', itemId).where('scanned_at', '>=', window.from).where('scanned_at', '<', window.to);
    const [totals, series, byLinkType, byLot, bySerial, byCountry] = await Promise.all([
      events()
        .select([
          sql<number>`count(*) FILTER (WHERE NOT is_bot)::int`.as('scans'),
          sql<number>`count(DISTINCT visitor_hash) FILTER (WHERE NOT is_bot)::int`.as('unique_visitors'),
          sql<number>`count(*) FILTER (WHERE is_bot)::int`.as('bot_scans'),
        ])
        .executeTakeFirstOrThrow(),
      this.series(tables, events().select(['scanned_at', 'visitor_hash']).where('is_bot', '=', false), window),
      ...(['link_type', 'lot', 'serial', 'country'] as const).map((dimension) => this.top(events(), dimension)),
    ]);
    return {
      totals: { scans: totals.scans, unique_visitors: totals.unique_visitors, bot_scans: totals.bot_scans },
      series,
      by_link_type: byLinkType,
      by_lot: byLot,
      by_serial: bySerial,
      by_country: byCountry,
    };
  }

  private async top(events: ReturnType<AccountTables['selectFrom']>, dimension: Dimension) {
    const value = dimension === 'country' ? sql<string>`coalesce(country, 'unknown')` : sql<string>`${sql.ref(dimension)}`;
    let query = events
      .select([value.as('value'), sql<number>`count(*)::int`.as('scans')])
      .where('is_bot', '=', false)
      .groupBy(sql`1`)
      .orderBy(sql`2 DESC, 1`)
      .limit(TOP);
    if (dimension === 'lot' || dimension === 'serial') query = query.where(dimension, 'is not', null);
    return (await query.execute()) as Array<{ value: string; scans: number }>;
  }

  /** Every bucket of the window in order, zero-filled: bucket starts at local boundaries in the window's zone. */
  private async series(tables: AccountTables, events: unknown, window: Gs1ScanWindow) {
    const { from, to, interval, timeZone } = window;
    const rows = await tables.execute<{ start: Date; scans: number; unique_visitors: number }>(sql`
      WITH e AS (${events}),
      b AS (
        SELECT date_trunc(${interval}, scanned_at AT TIME ZONE ${timeZone}) AS bucket, count(*) AS scans, count(DISTINCT visitor_hash) AS uv
        FROM e GROUP BY 1
      )
      SELECT (g AT TIME ZONE ${timeZone}) AS start, coalesce(b.scans, 0)::int AS scans, coalesce(b.uv, 0)::int AS unique_visitors
      FROM generate_series(
        date_trunc(${interval}, ${from}::timestamptz AT TIME ZONE ${timeZone}),
        (${to}::timestamptz AT TIME ZONE ${timeZone}) - interval '1 millisecond',
        ('1 ' || ${interval})::interval
      ) AS g
      LEFT JOIN b ON b.bucket = g
      ORDER BY g`);
    return rows.map((row) => ({ start: new Date(row.start).toISOString(), scans: row.scans, unique_visitors: row.unique_visitors }));
  }
}

const toRow = (scan: StoredGs1Scan) => ({
  item_id: scan.itemId,
  scanned_at: new Date(scan.at),
  primary_ai: scan.primaryAi,
  primary_value: scan.primaryValue,
  lot: scan.lot,
  serial: scan.serial,
  link_type: scan.linkType,
  is_bot: scan.isBot,
  country: scan.country,
  visitor_hash: scan.visitorHash,
});
