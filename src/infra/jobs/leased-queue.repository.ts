import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../../generated/kysely/database';
import { type Database } from '../database/database.service';
import type { Tables } from '../database/tables';
import { newLeaseToken } from './lease';
import type { RetryPolicy } from './retry-policy';

/**
 * The tables of the job runner's queues: one family. Each has the columns the one claim reads and
 * writes: `next_attempt_at` (due from then), `lease_token` and `lease_expires_at` (held by a claim
 * until then), and, where the queue counts its claims, `attempts`.
 */
export type QueueTableName = 'jobs' | 'webhook_deliveries' | 'clickhouse_export_outbox' | 'clickhouse_erasures';

/** A queue's table and settings, as data (docs/architecture.md#jobs): what the one claim, retry policy, sweep and depth read. */
export interface QueueSettings {
  /** As /metrics labels it; its sweep is the periodic task `<name>-sweep`. */
  name: string;
  table: QueueTableName;
  key: 'id' | 'batch_id';
  /** SQL over the row (alias `q`): it still has work. Absent: every row has (a row leaves the table when its work is done). */
  unfinished?: string;
  /** Rows are claimed in this column's order (oldest first). */
  order: string;
  /** A claim adds one to the row's `attempts` (a row claimed again knows an earlier claim may have done part of its work). */
  countsAttempts: boolean;
  /** At most `limit` rows of one group leased at once over all instances; the group's row (`table`) is locked while they are counted. */
  perGroup?: { column: 'account_id' | 'endpoint_id'; table: 'accounts' | 'webhook_endpoints'; limit: number };
  /** Rows one claim takes at most. */
  batch: number;
  /** How long a claim holds its rows: only a claim whose instance died (or hangs) runs out. */
  leaseMs: number;
  retry: RetryPolicy;
  /** What the queue's hourly sweep deletes, a batch at a time: rows of `table` whose `column` is older than `keepForMs`. */
  sweep?: { table: 'jobs' | 'webhook_events'; column: 'expires_at' | 'occurred_at'; keepForMs: number };
}

/** What is queued in one queue, as /metrics shows it (docs/operations.md#jobs). */
export interface QueueDepth {
  /** Due now and not leased. */
  ready: number;
  /** How long the longest-waiting ready row has been due, in seconds (0: none). */
  oldestReadySeconds: number;
  /** Leased by a worker of any instance. */
  running: number;
}

export interface ClaimOptions {
  now: Date;
  /** At most this many (the settings' batch when absent, never more). */
  limit?: number;
  /** More conditions on the row (alias `q`): the kinds this instance runs, an enabled endpoint. */
  where?: RawBuilder<unknown>;
  /** More assignments made by the claim (`status = 'running'`). */
  set?: RawBuilder<unknown>;
  /** The columns each claimed row is returned with. */
  returning: readonly string[];
}

const GROUPS_PER_CLAIM = 100;
const SWEEP_BATCH = 1000;

/**
 * The one leased claim (docs/architecture.md#jobs), over any queue's table: due, unleased rows are
 * locked with FOR UPDATE SKIP LOCKED (instances claiming at the same moment take different rows)
 * and leased with a fresh token; the worker changes a row only while it still holds that token,
 * and a row whose lease ran out (its instance died) is claimed again. With a per-group limit, the
 * claim first locks the groups it serves (FOR NO KEY UPDATE SKIP LOCKED, so that two instances
 * count a group's leases one after the other), the group waiting longest first, counts their live
 * leases, and takes each group's oldest due rows into its free slots: a group at its limit holds up
 * only its own rows.
 */
export class LeasedQueueRepository {
  private readonly table: RawBuilder<unknown>;
  private readonly key: RawBuilder<unknown>;

  constructor(
    private readonly database: Database,
    readonly settings: QueueSettings,
  ) {
    this.table = sql.table(settings.table);
    this.key = sql.ref(`q.${settings.key}`);
  }

  /** Leases due rows in `tx` (a transaction of the caller's, committed with what else it does) or in a transaction of its own. */
  async claim<Row>(options: ClaimOptions, tx?: Tables): Promise<{ token: string; rows: Row[] }> {
    const token = newLeaseToken();
    const limit = Math.min(options.limit ?? this.settings.batch, this.settings.batch);
    if (limit <= 0) return { token, rows: [] };
    const work = async (db: Kysely<DB>) => {
      const chosen = this.settings.perGroup ? await this.chooseInGroups(db, options, limit) : this.choose(options, limit);
      return chosen ? this.lease<Row>(db, chosen, token, options) : [];
    };
    const rows = tx ? await work(tx.anyAccount) : await this.database.workerTransaction((worker) => work(worker.anyAccount));
    return { token, rows };
  }

  /**
   * Hands rows back while they hold `token`: free again at `at` (now: at once). `uncounted`: the
   * attempt was not the row's fault (a shutdown) and does not count. `error`: why (null: no error, it waits), kept in `last_error`.
   */
  async release(
    keys: readonly string[],
    token: string,
    end: { at: Date; uncounted?: boolean; error?: string | null; set?: RawBuilder<unknown> },
  ): Promise<number> {
    if (keys.length === 0) return 0;
    const uncount = end.uncounted && this.settings.countsAttempts ? sql`, attempts = greatest(attempts - 1, 0)` : sql``;
    const error = end.error !== undefined ? sql`, last_error = ${end.error?.slice(0, 500) ?? null}` : sql``;
    const more = end.set ? sql`, ${end.set}` : sql``;
    const result = await this.database.workerTransaction((tx) =>
      sql`UPDATE ${this.table} AS q SET lease_token = NULL, lease_expires_at = NULL, next_attempt_at = ${end.at}::timestamptz${uncount}${error}${more}
        WHERE ${this.key} = ANY(${keys}::uuid[]) AND q.lease_token = ${token}::uuid RETURNING 1`.execute(tx.anyAccount),
    );
    return result.rows.length;
  }

  /** Deletes rows whose work is done, while they hold `token` (a row leaves the table when done). */
  async remove(keys: readonly string[], token: string): Promise<number> {
    if (keys.length === 0) return 0;
    const result = await this.database.workerTransaction((tx) =>
      sql`DELETE FROM ${this.table} AS q WHERE ${this.key} = ANY(${keys}::uuid[]) AND q.lease_token = ${token}::uuid RETURNING 1`.execute(
        tx.anyAccount,
      ),
    );
    return result.rows.length;
  }

  /** What the queue holds over every instance (/metrics: the one place that reads what is queued). */
  async depth(now: Date): Promise<QueueDepth> {
    const ready = this.ready(now);
    const result = await this.database.workerTransaction((tx) =>
      sql<{ ready: number; oldest: number | null; running: number }>`
        SELECT count(*) FILTER (WHERE ${ready})::int AS ready,
          extract(epoch FROM ${now}::timestamptz - min(q.next_attempt_at) FILTER (WHERE ${ready}))::float8 AS oldest,
          count(*) FILTER (WHERE ${this.leased(now)})::int AS running
        FROM ${this.table} AS q WHERE ${this.unfinished()}`.execute(tx.anyAccount),
    );
    const row = result.rows[0];
    return { ready: Number(row.ready), oldestReadySeconds: Math.max(0, Number(row.oldest ?? 0)), running: Number(row.running) };
  }

  /** One batch of the sweep: deletes up to SWEEP_BATCH finished rows past their keeping; how many went. */
  async sweep(now: Date): Promise<number> {
    const sweep = this.settings.sweep;
    if (!sweep) return 0;
    const cutoff = new Date(now.getTime() - sweep.keepForMs);
    const table = sql.table(sweep.table);
    const column = sql.ref(sweep.column);
    const batch = sql`SELECT id FROM ${table} WHERE ${column} <= ${cutoff}::timestamptz LIMIT ${SWEEP_BATCH}`;
    const result = await this.database.workerTransaction((tx) => sql`DELETE FROM ${table} WHERE id IN (${batch}) RETURNING 1`.execute(tx.anyAccount));
    return result.rows.length;
  }

  /** Due rows in claim order (no group limit), locked as they are read. */
  private choose(options: ClaimOptions, limit: number): RawBuilder<unknown> {
    return sql`SELECT ${this.key} FROM ${this.table} AS q WHERE ${this.claimable(options)}
      ORDER BY ${sql.ref(`q.${this.settings.order}`)} LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
  }

  /** Due rows of the groups this claim could lock, each group's oldest first, within its free slots; null: none. */
  private async chooseInGroups(db: Kysely<DB>, options: ClaimOptions, limit: number): Promise<RawBuilder<unknown> | null> {
    const group = this.settings.perGroup!;
    const column = sql.ref(`q.${group.column}`);
    const order = sql.ref(`q.${this.settings.order}`);
    const { now } = options;
    // Each group's oldest due row orders the groups: the group waiting longest is served first.
    const groups = await sql<{ id: string }>`
      SELECT g.id FROM ${sql.table(group.table)} AS g
      CROSS JOIN LATERAL (SELECT min(${order}) AS first FROM ${this.table} AS q WHERE ${column} = g.id AND ${this.claimable(options)}) AS due
      WHERE due.first IS NOT NULL
        AND (SELECT count(*) FROM ${this.table} AS q WHERE ${column} = g.id AND ${this.leased(now)}) < ${group.limit}
      ORDER BY due.first LIMIT ${GROUPS_PER_CLAIM} FOR NO KEY UPDATE OF g SKIP LOCKED`.execute(db);
    if (groups.rows.length === 0) return null;
    const ids = groups.rows.map((row) => row.id);
    // A statement of its own, after the locks: it sees the leases of claims committed meanwhile.
    const counted = await sql<{ id: string; n: number }>`
      SELECT ${column} AS id, count(*)::int AS n FROM ${this.table} AS q
      WHERE ${column} = ANY(${ids}::uuid[]) AND ${this.leased(now)} GROUP BY 1`.execute(db);
    const leased = new Map(counted.rows.map((row) => [row.id, Number(row.n)]));
    const slots: number[] = [];
    let left = limit;
    for (const id of ids) {
      const free = Math.max(0, Math.min(group.limit - (leased.get(id) ?? 0), left));
      slots.push(free);
      left -= free;
    }
    if (slots.every((free) => free === 0)) return null;
    return sql`SELECT c.claim_key FROM unnest(${ids}::uuid[], ${slots}::int[]) AS g(id, slots)
      CROSS JOIN LATERAL (SELECT ${this.key} AS claim_key FROM ${this.table} AS q WHERE ${column} = g.id AND ${this.claimable(options)}
        ORDER BY ${order} LIMIT g.slots FOR UPDATE OF q SKIP LOCKED) AS c`;
  }

  private async lease<Row>(db: Kysely<DB>, chosen: RawBuilder<unknown>, token: string, options: ClaimOptions): Promise<Row[]> {
    const until = new Date(options.now.getTime() + this.settings.leaseMs);
    const counted = this.settings.countsAttempts ? sql`, attempts = attempts + 1` : sql``;
    const more = options.set ? sql`, ${options.set}` : sql``;
    const returning = sql.join(options.returning.map((column) => sql.ref(`q.${column}`)));
    const result = await sql<Row>`
      UPDATE ${this.table} AS q SET lease_token = ${token}::uuid, lease_expires_at = ${until}::timestamptz${counted}${more}
      WHERE ${this.key} IN (${chosen}) RETURNING ${returning}`.execute(db);
    return result.rows;
  }

  /** The row (alias `q`) may be claimed now: unfinished, due, not leased, and what the claimant asks. */
  private claimable(options: ClaimOptions): RawBuilder<unknown> {
    const extra = options.where ? sql` AND (${options.where})` : sql``;
    return sql`${this.ready(options.now)}${extra}`;
  }

  private ready(now: Date): RawBuilder<unknown> {
    const leaseFree = sql`(q.lease_expires_at IS NULL OR q.lease_expires_at <= ${now}::timestamptz)`;
    return sql`(${this.unfinished()} AND q.next_attempt_at <= ${now}::timestamptz AND ${leaseFree})`;
  }

  private leased(now: Date): RawBuilder<unknown> {
    return sql`(q.lease_token IS NOT NULL AND q.lease_expires_at > ${now}::timestamptz)`;
  }

  private unfinished(): RawBuilder<unknown> {
    return this.settings.unfinished ? sql.raw(`(${this.settings.unfinished})`) : sql`TRUE`;
  }
}
