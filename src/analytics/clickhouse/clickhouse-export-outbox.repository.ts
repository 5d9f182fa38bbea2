import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { AccountId } from '../../common/ids/account-id';
import type { QrCodeId } from '../../common/ids/resource-ids';
import { Database } from '../../infra/database/database.service';
import { LeasedQueueRepository, type QueueSettings } from '../../infra/jobs/leased-queue.repository';
import type { RetryPolicy } from '../../infra/jobs/retry-policy';
import type { SqlTransaction } from '../../infra/database/sql-session';
import type { BatchRowKeys } from '../../scans/scan-batch';
import { referrerHostSql } from '../scan-analytics.repository';

/**
 * When a failed export or erasure is tried again: 1 s after its first claim, doubling to at most a
 * minute (±20 %). Never given up: a batch stays in the outbox until ClickHouse takes it.
 */
export const CLICKHOUSE_RETRY: RetryPolicy = { firstDelayMs: 1000, factor: 2, maxDelayMs: 60_000, jitter: 0.2, maxAttempts: null };

/** The export's queue: 200 batches a claim (one ClickHouse INSERT for all), a lease of 5 min, retried forever. */
export const CLICKHOUSE_EXPORT_QUEUE: QueueSettings = {
  name: 'clickhouse-export',
  table: 'clickhouse_export_outbox',
  key: 'batch_id',
  order: 'stored_at',
  countsAttempts: true,
  batch: 200,
  leaseMs: 5 * 60_000,
  retry: CLICKHOUSE_RETRY,
};

/** A stored batch claimed for export. */
export interface ClaimedExport {
  batchId: string;
  /** 1 on its first claim; more means an earlier claim may have written it to ClickHouse already. */
  attempts: number;
}

/** A stored scan as the export reads it back from PostgreSQL, with its code's account and its batch. */
export interface ExportedScan {
  batchId: string;
  eventId: string;
  codeId: QrCodeId;
  accountId: AccountId;
  scannedAt: Date;
  referrer: string | null;
  referrerHost: string;
  userAgent: string | null;
  visitorHash: string;
  device: string;
  os: string;
  browser: string;
  isBot: boolean;
  country: string | null;
  city: string | null;
  ruleIndex: number | null;
  armIndex: number | null;
}

const OUTBOX_COLUMNS = 6;
/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters in one statement. */
const BATCHES_PER_INSERT = 5000;
function insertOutboxSql(rows: number): string {
  const values: string[] = [];
  for (let row = 0; row < rows; row++) {
    const at = row * OUTBOX_COLUMNS;
    values.push(`($${at + 1}::uuid, $${at + 2}::int, $${at + 3}::uuid[], $${at + 4}::timestamptz, $${at + 5}::timestamptz, $${at + 6}::uuid[])`);
  }
  return (
    'INSERT INTO clickhouse_export_outbox (batch_id, row_count, code_ids, first_scanned_at, last_scanned_at, event_ids) ' +
    `VALUES ${values.join(', ')} ON CONFLICT (batch_id) DO NOTHING`
  );
}
/** UUIDs as one array literal: one short text parameter, which the pg driver sends as it is (no escaping per element). */
const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;
/** Pending batches counted at most this far (the gauge says "at least" past it): a count over a long outage's backlog would be slow. */
const PENDING_COUNT_CAP = 100_000;

interface ScanRow {
  batch_id: string;
  event_id: string;
  qr_code_id: QrCodeId;
  account_id: AccountId;
  scanned_at: Date;
  referrer: string | null;
  referrer_host: string;
  user_agent: string | null;
  visitor_hash: string;
  device: string;
  os: string;
  browser: string;
  is_bot: boolean;
  country: string | null;
  city: string | null;
  rule_index: number | null;
  arm_index: number | null;
}

/**
 * The ClickHouse export's outbox in PostgreSQL (docs/clickhouse.md): a row per stored batch,
 * written in the batch's transaction, claimed with the runner's one claim (instances claim
 * different batches), and deleted once ClickHouse holds the batch. The worker's statements run on
 * the background workers' pool.
 */
@Injectable()
export class ClickHouseExportOutboxRepository {
  readonly leased: LeasedQueueRepository;

  constructor(private readonly database: Database) {
    this.leased = new LeasedQueueRepository(database, CLICKHOUSE_EXPORT_QUEUE);
  }

  /** The stored batches' keys, in the scan store's transaction: they commit with the batches or not at all. */
  async record(tx: SqlTransaction, batches: readonly BatchRowKeys[]): Promise<void> {
    for (let start = 0; start < batches.length; start += BATCHES_PER_INSERT) {
      const chunk = batches.slice(start, start + BATCHES_PER_INSERT);
      await tx.query(
        insertOutboxSql(chunk.length),
        chunk.flatMap((b) => [b.batchId, b.rows, uuidArray(b.codeIds), b.firstAt, b.lastAt, uuidArray(b.eventIds)]),
      );
    }
  }

  /**
   * Leases due batches, oldest first (the runner's one claim); each claim is counted. A batch of a
   * code whose erasure is queued and not yet issued, holding scans from before its cut, and stored
   * after it (not among those it waits for), waits for the mutation: its rows stay in PostgreSQL,
   * so they must miss the mutation.
   */
  async claim(now: Date): Promise<{ token: string; batches: ClaimedExport[] }> {
    const { token, rows } = await this.leased.claim<{ batch_id: string; attempts: number }>({
      now,
      where: sql`NOT EXISTS (
        SELECT 1 FROM clickhouse_erasures e
        WHERE e.issued_at IS NULL AND e.qr_code_id = ANY(q.code_ids) AND q.first_scanned_at < e.before AND NOT q.batch_id = ANY(e.waits_for)
      )`,
      returning: ['batch_id', 'attempts'],
    });
    return { token, batches: rows.map((row) => ({ batchId: row.batch_id, attempts: row.attempts })) };
  }

  /**
   * The rows of these batches still in scan_events (a code deleted since took its rows with it),
   * each with its code's account, found by their primary-key parts: the batch's codes and time
   * span, then its event ids.
   */
  async rowsOf(batchIds: readonly string[]): Promise<ExportedScan[]> {
    const rows = await this.database.workerTransaction(async (tx) => {
      const result = await sql<ScanRow>`
        SELECT o.batch_id::text AS batch_id, e.event_id::text AS event_id, e.qr_code_id::text AS qr_code_id,
          q.account_id::text AS account_id, e.scanned_at, e.referrer, ${sql.raw(referrerHostSql('e.referrer'))} AS referrer_host,
          e.user_agent, e.visitor_hash, e.device, e.os, e.browser, e.is_bot, e.country, e.city, e.rule_index, e.arm_index
        FROM clickhouse_export_outbox o
        CROSS JOIN LATERAL unnest(o.code_ids) AS c(id)
        JOIN scan_events e ON e.qr_code_id = c.id AND e.scanned_at >= o.first_scanned_at AND e.scanned_at <= o.last_scanned_at
        JOIN qr_codes q ON q.id = e.qr_code_id
        WHERE o.batch_id = ANY(${uuidArray(batchIds)}::uuid[]) AND e.event_id = ANY(o.event_ids)`.execute(tx.anyAccount);
      return result.rows;
    });
    return rows.map((row) => ({
      batchId: row.batch_id,
      eventId: row.event_id,
      codeId: row.qr_code_id,
      accountId: row.account_id,
      scannedAt: new Date(row.scanned_at),
      referrer: row.referrer,
      referrerHost: row.referrer_host,
      userAgent: row.user_agent,
      visitorHash: row.visitor_hash,
      device: row.device,
      os: row.os,
      browser: row.browser,
      isBot: row.is_bot,
      country: row.country,
      city: row.city,
      ruleIndex: row.rule_index,
      armIndex: row.arm_index,
    }));
  }

  /** Exported: the batches leave the outbox (while this claim still holds them). */
  async finish(batchIds: readonly string[], token: string): Promise<void> {
    await this.leased.remove(batchIds, token);
  }

  /** Not exported this time: the lease goes, and the batches are due again at `at`. */
  async postpone(batchIds: readonly string[], token: string, at: Date, error: string): Promise<void> {
    await this.leased.release(batchIds, token, { at, error });
  }

  /** How far the export is behind: the age of the oldest batch waiting (0 when none, in the database's own clock), and how many wait. */
  async lag(): Promise<{ seconds: number; pending: number }> {
    return this.database.workerTransaction(async (tx) => {
      const result = await sql<{ seconds: number | string | null; pending: number | string }>`
        SELECT extract(epoch FROM now() - (SELECT min(stored_at) FROM clickhouse_export_outbox))::float8 AS seconds,
          (SELECT count(*) FROM (SELECT 1 FROM clickhouse_export_outbox LIMIT ${PENDING_COUNT_CAP}) waiting)::int AS pending`.execute(tx.shared);
      const row = result.rows[0];
      return { seconds: Math.max(0, Number(row.seconds ?? 0)), pending: Number(row.pending) };
    });
  }
}
