import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { QrCodeId } from '../../common/ids/resource-ids';
import { Database } from '../../infra/database/database.service';
import type { Tables } from '../../infra/database/tables';

/**
 * How long a maintenance statement waits for a lock. Dropping a month takes an ACCESS EXCLUSIVE lock
 * on scan_events, which batch stores (COPY) and readers queue behind while it waits: it waits briefly
 * and gives up (tried again later) rather than hold the hot table up behind a long transaction.
 */
const LOCK_TIMEOUT = '500ms';
/** A month partition's name: scan_events_pYYYYMM (migration 20261127090000). */
const MONTH_PARTITION = /^scan_events_p(\d{4})(\d{2})$/;
const DEFAULT_PARTITION = 'scan_events_default';
const HOUR_MS = 3_600_000;
/** Edge rows are deleted a time slice at a time: at least a minute, at most a day. */
const MIN_SLICE_MS = 60_000;
const MAX_SLICE_MS = 24 * HOUR_MS;

/** A partition of scan_events: a month (`month` is its first instant, UTC) or the default one (`month` null). */
export interface ScanPartition {
  name: string;
  month: Date | null;
}

/** A code whose own retention is set, and that retention in days. */
export interface CodeRetention {
  codeId: QrCodeId;
  days: number;
}

/** One bounded round of a sweep: how many rows it deleted, and the greatest key among them (where the next round starts). */
interface Round<K> {
  deleted: number;
  last: K | null;
}

/** The rollup tables keyed by code first (their rows go before the cutoff day with their code's). */
const ROLLUPS_BY_CODE = ['scan_code_day_values', 'scan_code_days'] as const;
/** The rollup tables keyed by account first. */
const ROLLUPS_BY_ACCOUNT = ['scan_account_day_values', 'scan_account_days'] as const;

/**
 * The SQL of scan maintenance (docs/scans-and-privacy.md#retention): months of scan_events created
 * ahead, the visitor sets of past days swept, and what is past its retention deleted: whole months
 * dropped, edge rows and rollups in bounded rounds, each its own short transaction on the
 * background workers' pool. System work over every account (listed in ownership.spec.ts).
 */
@Injectable()
export class ScanRetentionRepository {
  constructor(private readonly database: Database) {}

  /** Creates the month of `at` (UTC) unless it exists, moving the default partition's rows of that month into it; true when created. */
  async ensureMonth(at: Date): Promise<boolean> {
    return this.briefly(async (tx) => {
      const result = await sql<{ created: boolean }>`SELECT scan_events_ensure_month(${at}::timestamptz) AS created`.execute(tx.shared);
      return result.rows[0].created;
    });
  }

  /** The partitions of scan_events, months in order, the default one last. */
  async partitions(): Promise<ScanPartition[]> {
    const rows = await this.database.workerTransaction(async (tx) => {
      const result = await sql<{ name: string }>`
        SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'scan_events'::regclass ORDER BY c.relname`.execute(tx.shared);
      return result.rows;
    });
    const months: ScanPartition[] = [];
    let fallback: ScanPartition | null = null;
    for (const { name } of rows) {
      const month = MONTH_PARTITION.exec(name);
      if (month) months.push({ name, month: new Date(Date.UTC(Number(month[1]), Number(month[2]) - 1, 1)) });
      else if (name === DEFAULT_PARTITION) fallback = { name, month: null };
    }
    return fallback ? [...months, fallback] : months;
  }

  /**
   * Drops a month partition (its rows go at once, no dead rows left behind). DROP takes an ACCESS
   * EXCLUSIVE lock on scan_events for an instant; waiting longer than LOCK_TIMEOUT for it fails the
   * drop (a database error), and the caller tries again later.
   */
  async dropPartition(partition: ScanPartition): Promise<void> {
    if (!partition.month) throw new Error('the default partition is never dropped');
    await this.briefly((tx) => sql`DROP TABLE ${sql.id(partition.name)}`.execute(tx.shared));
  }

  /** The earliest scan in a partition before `cutoff`, or null when it holds none. */
  async firstScanBefore(partition: ScanPartition, cutoff: Date): Promise<Date | null> {
    return this.database.workerTransaction(async (tx) => {
      const result = await sql<{ first: Date | string | null }>`
        SELECT min(scanned_at) AS first FROM ${sql.id(partition.name)} WHERE scanned_at < ${cutoff}`.execute(tx.shared);
      const first = result.rows[0]?.first;
      return first === null || first === undefined ? null : new Date(first);
    });
  }

  /** Deletes at most `limit` of a partition's scans in [from, to) (found through the BRIN index on scanned_at); returns how many. */
  async deleteScansBetween(partition: ScanPartition, from: Date, to: Date, limit: number): Promise<number> {
    return this.briefly(async (tx) => {
      const result = await sql<{ deleted: number }>`
        WITH gone AS (
          DELETE FROM ${sql.id(partition.name)} WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM ${sql.id(partition.name)} WHERE scanned_at >= ${from} AND scanned_at < ${to} LIMIT ${limit}))
          RETURNING 1
        )
        SELECT count(*)::int AS deleted FROM gone`.execute(tx.shared);
      return Number(result.rows[0].deleted);
    });
  }

  /**
   * Deletes every scan of a partition before `cutoff`, in time slices of bounded rounds (`limit`
   * rows per statement, each its own transaction): rows go in the order they were appended, so a
   * slice's rounds only pass over that slice's deleted rows, never the whole edge's. A slice that
   * took several rounds halves the next one; one that took a single round doubles it.
   */
  async deleteScansBefore(partition: ScanPartition, cutoff: Date, limit: number, stopping: () => boolean = () => false): Promise<number> {
    const first = await this.firstScanBefore(partition, cutoff);
    if (!first) return 0;
    let total = 0;
    let slice = HOUR_MS;
    for (let from = first; from < cutoff && !stopping();) {
      const to = new Date(Math.min(from.getTime() + slice, cutoff.getTime()));
      let rounds = 0;
      for (;;) {
        const deleted = await this.deleteScansBetween(partition, from, to, limit);
        total += deleted;
        rounds++;
        if (deleted < limit || stopping()) break;
      }
      from = to;
      slice = Math.min(MAX_SLICE_MS, Math.max(MIN_SLICE_MS, rounds > 2 ? slice / 2 : rounds === 1 ? slice * 2 : slice));
    }
    return total;
  }

  /**
   * Deletes the rollup rows of days before `cutoffDay` (YYYY-MM-DD) of every code and account, in
   * rounds of at most `limit` rows, walking each table in the order of its key's first column (each
   * round starts where the last one stopped, so the walk passes over every row once). Values before
   * their days (a round never leaves a day's values without their day).
   */
  async deleteRollupsBefore(cutoffDay: string, limit: number, stopping: () => boolean = () => false): Promise<number> {
    let total = 0;
    for (const table of ROLLUPS_BY_CODE) total += await this.sweepInKeyOrder(table, 'qr_code_id', sql`day < ${cutoffDay}::date`, limit, stopping);
    for (const table of ROLLUPS_BY_ACCOUNT) total += await this.sweepInKeyOrder(table, 'account_id', sql`day < ${cutoffDay}::date`, limit, stopping);
    return total;
  }

  /** Deletes the visitor sets of days before `day` (YYYY-MM-DD), in rounds of at most `limit` rows. */
  async deleteVisitorSetsBefore(day: string, limit: number, stopping: () => boolean = () => false): Promise<number> {
    return this.sweepInKeyOrder('scan_day_visitors', 'qr_code_id', sql`day < ${day}::date`, limit, stopping);
  }

  /** Dynamic codes whose own scan retention is set. */
  async codesWithRetention(): Promise<CodeRetention[]> {
    const rows = await this.database.workerTransaction((tx) =>
      tx.anyAccount
        .selectFrom('qr_codes')
        .select(['id', 'scan_retention_days'])
        .where('scan_retention_days', 'is not', null)
        .where('is_dynamic', '=', true)
        .orderBy('id')
        .execute(),
    );
    return rows.map((row) => ({ codeId: row.id, days: row.scan_retention_days as number }));
  }

  /**
   * Deletes a code's scans before `cutoff`, oldest first, in rounds of at most `limit` rows (its
   * primary key leads with the code and the time: each round reads only what it deletes, and the
   * next starts at the last time it reached). Only that code's rows are touched.
   */
  async deleteCodeScansBefore(codeId: QrCodeId, cutoff: Date, limit: number, stopping: () => boolean = () => false): Promise<number> {
    let total = 0;
    let from: Date | null = null;
    while (!stopping()) {
      const round: Round<Date> = await this.briefly(async (tx) => {
        const result = await sql<{ deleted: number; last: Date | string | null }>`
          WITH doomed AS (
            SELECT qr_code_id, scanned_at, event_id FROM scan_events
            WHERE qr_code_id = ${codeId}::uuid AND scanned_at < ${cutoff} ${from ? sql`AND scanned_at >= ${from}` : sql``}
            ORDER BY scanned_at LIMIT ${limit}
          ), gone AS (
            DELETE FROM scan_events e USING doomed d
            WHERE e.qr_code_id = d.qr_code_id AND e.scanned_at = d.scanned_at AND e.event_id = d.event_id
            RETURNING e.scanned_at
          )
          SELECT count(*)::int AS deleted, max(scanned_at) AS last FROM gone`.execute(tx.shared);
        const row = result.rows[0];
        return { deleted: Number(row.deleted), last: row.last === null ? null : new Date(row.last) };
      });
      total += round.deleted;
      if (round.deleted < limit || !round.last) return total;
      from = round.last;
    }
    return total;
  }

  /** Removes codes' rollups of days before `cutoffDay` from their own and their accounts' rows (scan_rollups_remove). */
  async removeCodeRollupsBefore(codeIds: readonly QrCodeId[], cutoffDay: string): Promise<void> {
    if (codeIds.length === 0) return;
    await this.briefly((tx) =>
      sql`SELECT 1 AS removed FROM scan_rollups_remove(${`{${codeIds.join(',')}}`}::uuid[], '-infinity'::date, ${cutoffDay}::date)`.execute(
        tx.anyAccount,
      ),
    );
  }

  /**
   * Deletes a table's rows matching `condition` in rounds of at most `limit`, walking its index in
   * the order of `key` (the first column of its primary key) from where the last round stopped.
   */
  private async sweepInKeyOrder(
    table: string,
    key: 'qr_code_id' | 'account_id',
    condition: ReturnType<typeof sql>,
    limit: number,
    stopping: () => boolean,
  ): Promise<number> {
    let total = 0;
    let from: string | null = null;
    while (!stopping()) {
      const round: Round<string> = await this.briefly(async (tx) => {
        const result = await sql<{ deleted: number; last: string | null }>`
          WITH gone AS (
            DELETE FROM ${sql.table(table)} WHERE ctid = ANY(ARRAY(
              SELECT ctid FROM ${sql.table(table)}
              WHERE ${condition} ${from ? sql`AND ${sql.ref(key)} >= ${from}::uuid` : sql``}
              ORDER BY ${sql.ref(key)} LIMIT ${limit}))
            RETURNING ${sql.ref(key)} AS key
          )
          SELECT count(*)::int AS deleted, max(key::text COLLATE "C") AS last FROM gone`.execute(tx.anyAccount);
        const row = result.rows[0];
        return { deleted: Number(row.deleted), last: row.last };
      });
      total += round.deleted;
      if (round.deleted < limit || !round.last) return total;
      from = round.last;
    }
    return total;
  }

  /** One short transaction on the workers' pool that waits for a lock at most LOCK_TIMEOUT. */
  private briefly<T>(work: (tx: Tables) => Promise<T>): Promise<T> {
    return this.database.workerTransaction(async (tx) => {
      await sql`SELECT set_config('lock_timeout', ${LOCK_TIMEOUT}, true)`.execute(tx.shared);
      return work(tx);
    });
  }
}
