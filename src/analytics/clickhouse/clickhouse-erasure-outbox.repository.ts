import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { QrCodeId } from '../../common/ids/resource-ids';
import { Database } from '../../infra/database/database.service';
import type { Tables } from '../../infra/database/tables';
import { LeasedQueueRepository, type QueueSettings } from '../../infra/jobs/leased-queue.repository';
import { CLICKHOUSE_EXPORT_QUEUE, CLICKHOUSE_RETRY } from './clickhouse-export-outbox.repository';

/** An erasure claimed by the export worker. */
export interface ClaimedErasure {
  id: string;
  codeId: QrCodeId;
  before: Date;
  /** ClickHouse accepted its mutation on an earlier claim: what is left is to see it done. */
  issued: boolean;
  attempts: number;
}

/** The erasures' queue: 20 a claim (each is a mutation or a look at one: few, and rare), the export's lease and retries. */
export const CLICKHOUSE_ERASURE_QUEUE: QueueSettings = {
  name: 'clickhouse-erasures',
  table: 'clickhouse_erasures',
  key: 'id',
  order: 'requested_at',
  countsAttempts: true,
  batch: 20,
  leaseMs: CLICKHOUSE_EXPORT_QUEUE.leaseMs,
  retry: CLICKHOUSE_RETRY,
};

/**
 * Erasures of a code's scan history waiting for ClickHouse's copy (docs/clickhouse.md#erasure):
 * a row written in the erasure's transaction (so it commits with the PostgreSQL erasure or not at
 * all), claimed with the runner's one claim by the erasure worker, deleted once ClickHouse's
 * mutation is done. The worker's statements run on the background workers' pool.
 */
@Injectable()
export class ClickHouseErasureOutboxRepository {
  readonly leased: LeasedQueueRepository;

  constructor(private readonly database: Database) {
    this.leased = new LeasedQueueRepository(database, CLICKHOUSE_ERASURE_QUEUE);
  }

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

  /** Leases due erasures, oldest first (the runner's one claim); each claim is counted. */
  async claim(now: Date): Promise<{ token: string; erasures: ClaimedErasure[] }> {
    const { token, rows } = await this.leased.claim<{
      id: string;
      qr_code_id: QrCodeId;
      before: Date | string;
      issued_at: Date | null;
      attempts: number;
    }>({
      now,
      returning: ['id', 'qr_code_id', 'before', 'issued_at', 'attempts'],
    });
    return {
      token,
      erasures: rows.map((row) => ({
        id: row.id,
        codeId: row.qr_code_id,
        before: new Date(row.before),
        issued: row.issued_at !== null,
        attempts: row.attempts,
      })),
    };
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
  async postpone(id: string, token: string, at: Date, error: string | null): Promise<void> {
    await this.leased.release([id], token, { at, error });
  }

  /** ClickHouse has erased the rows: the erasure leaves the outbox. */
  async finish(id: string, token: string): Promise<void> {
    await this.leased.remove([id], token);
  }

  /** How many erasures wait (while any does, analytics read PostgreSQL). */
  async pending(): Promise<number> {
    return this.database.workerTransaction(async (tx) => {
      const result = await sql<{ n: number | string }>`SELECT count(*)::int AS n FROM clickhouse_erasures`.execute(tx.shared);
      return Number(result.rows[0].n);
    });
  }
}
