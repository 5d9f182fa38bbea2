import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { QrCodeId } from '../../common/ids/resource-ids';
import { Database } from '../../infra/database/database.service';
import type { Tables } from '../../infra/database/tables';
import type { QueueDepth } from '../../infra/jobs/job-runner.service';
import { leaseIsFree } from '../../infra/jobs/lease';

/** An erasure claimed by the export worker. */
export interface ClaimedErasure {
  id: string;
  codeId: QrCodeId;
  before: Date;
  /** ClickHouse accepted its mutation on an earlier claim: what is left is to see it done. */
  issued: boolean;
  claims: number;
}

/**
 * Erasures of a code's scan history waiting for ClickHouse's copy (docs/clickhouse.md#erasure):
 * a row written in the erasure's transaction (so it commits with the PostgreSQL erasure or not at
 * all), claimed with a lease by the export worker, deleted once ClickHouse's mutation is done.
 * The worker's statements run on the background workers' pool.
 */
@Injectable()
export class ClickHouseErasureOutboxRepository {
  constructor(private readonly database: Database) {}

  /**
   * Queues the erasure of the code's ClickHouse rows before `before`, in the PostgreSQL erasure's
   * transaction, after the code is locked: the export batches it sees holding the code's scans from
   * before the cut are all the ones stored before it (a batch locks its codes first), and the
   * mutation waits for them.
   */
  async record(tx: Tables, codeId: QrCodeId, before: Date): Promise<void> {
    await sql`
      INSERT INTO clickhouse_erasures (id, qr_code_id, before, waits_for)
      SELECT ${randomUUID()}::uuid, ${codeId}::uuid, ${before}::timestamptz, coalesce(array_agg(batch_id), '{}')
      FROM clickhouse_export_outbox WHERE ${codeId}::uuid = ANY(code_ids) AND first_scanned_at < ${before}::timestamptz`.execute(tx.shared);
  }

  /** Leases up to `limit` due erasures, oldest first, until `leaseUntil`; each claim is counted. */
  async claim(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedErasure[]> {
    return this.database.workerTransaction(async (tx) => {
      const db = tx.shared;
      const due = db
        .selectFrom('clickhouse_erasures')
        .select('id')
        .where('next_attempt_at', '<=', now)
        .where(leaseIsFree('lease_expires_at', now))
        .orderBy('requested_at')
        .limit(limit)
        .forUpdate()
        .skipLocked();
      const rows = await db
        .updateTable('clickhouse_erasures')
        .set((eb) => ({ claims: eb('claims', '+', 1), lease_expires_at: leaseUntil }))
        .where('id', 'in', due)
        .returning(['id', 'qr_code_id', 'before', 'issued_at', 'claims'])
        .execute();
      return rows.map((row) => ({
        id: row.id,
        codeId: row.qr_code_id,
        before: new Date(row.before),
        issued: row.issued_at !== null,
        claims: row.claims,
      }));
    });
  }

  /**
   * Whether a batch the erasure waits for is still to be exported: stored before the erasure, it may
   * have read its rows before the erasure and write them after the mutation (which touches only the
   * rows ClickHouse holds when it runs).
   */
  async exportPendingFor(id: string): Promise<boolean> {
    return this.database.workerTransaction(async (tx) => {
      const result = await sql<{ pending: boolean }>`
        SELECT EXISTS (
          SELECT 1 FROM clickhouse_erasures e JOIN clickhouse_export_outbox o ON o.batch_id = ANY(e.waits_for) WHERE e.id = ${id}::uuid
        ) AS pending`.execute(tx.shared);
      return result.rows[0].pending;
    });
  }

  /** ClickHouse accepted the erasure's mutation. */
  async issued(id: string, at: Date): Promise<void> {
    await this.database.workerTransaction((tx) => tx.shared.updateTable('clickhouse_erasures').set({ issued_at: at }).where('id', '=', id).execute());
  }

  /** Not done this time: the lease goes, and the erasure is due again at `at` (`error`: why, or null while it simply waits). */
  async postpone(id: string, at: Date, error: string | null): Promise<void> {
    await this.database.workerTransaction((tx) =>
      tx.shared
        .updateTable('clickhouse_erasures')
        .set({ lease_expires_at: null, next_attempt_at: at, last_error: error?.slice(0, 500) ?? null })
        .where('id', '=', id)
        .execute(),
    );
  }

  /** ClickHouse has erased the rows: the erasure leaves the outbox. */
  async finish(id: string): Promise<void> {
    await this.database.workerTransaction((tx) => tx.shared.deleteFrom('clickhouse_erasures').where('id', '=', id).execute());
  }

  /** What the queue holds (/metrics): erasures due, the oldest one's wait, erasures leased. */
  async depth(now: Date): Promise<QueueDepth> {
    return this.database.workerTransaction(async (tx) => {
      const result = await sql<{ ready: number; oldest: number | null; running: number }>`
        SELECT count(*) FILTER (WHERE next_attempt_at <= ${now}::timestamptz AND ${leaseIsFree('lease_expires_at', now)})::int AS ready,
          extract(epoch FROM ${now}::timestamptz - min(requested_at)
            FILTER (WHERE next_attempt_at <= ${now}::timestamptz AND ${leaseIsFree('lease_expires_at', now)}))::float8 AS oldest,
          count(*) FILTER (WHERE lease_expires_at > ${now}::timestamptz)::int AS running
        FROM clickhouse_erasures`.execute(tx.shared);
      const row = result.rows[0];
      return { ready: Number(row.ready), oldestReadySeconds: Math.max(0, Number(row.oldest ?? 0)), running: Number(row.running) };
    });
  }

  /** How many erasures wait (while any does, analytics read PostgreSQL). */
  async pending(): Promise<number> {
    return this.database.workerTransaction(async (tx) => {
      const result = await sql<{ n: number | string }>`SELECT count(*)::int AS n FROM clickhouse_erasures`.execute(tx.shared);
      return Number(result.rows[0].n);
    });
  }
}
