import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { AccountId } from '../../common/ids/account-id';
import type { QrCodeId } from '../../common/ids/resource-ids';
import { Database } from '../../infra/database/database.service';
import type { QueueDepth } from '../../infra/jobs/job-runner.service';
import { leaseIsFree } from '../../infra/jobs/lease';
import type { SqlTransaction } from '../../infra/database/sql-session';
import type { BatchRowKeys } from '../../scans/scan-batch';
import { referrerHostSql } from '../scan-analytics.repository';

/** A stored batch claimed for export. */
export interface ClaimedExport {
  batchId: string;
  /** 1 on its first claim; more means an earlier claim may have written it to ClickHouse already. */
  claims: number;
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
 * written in the batch's transaction, claimed with a lease (FOR UPDATE SKIP LOCKED: instances
 * claim different batches), and deleted once ClickHouse holds the batch. The worker's statements
 * run on the background workers' pool.
 */
@Injectable()
export class ClickHouseExportOutboxRepository {
  constructor(private readonly database: Database) {}

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

  /** Leases up to `limit` due batches, oldest first, until `leaseUntil`; each claim is counted. */
  async claim(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedExport[]> {
    return this.database.workerTransaction(async (tx) => {
      const db = tx.shared;
      const due = db
        .selectFrom('clickhouse_export_outbox')
        .select('batch_id')
        .where('next_attempt_at', '<=', now)
        .where(leaseIsFree('lease_expires_at', now))
        // A batch of a code whose erasure is queued and not yet issued, holding scans from before its cut, and stored after it
        // (not among those it waits for), waits for the mutation: its rows stay in PostgreSQL, so they must miss the mutation.
        .where(
          sql<boolean>`NOT EXISTS (
            SELECT 1 FROM clickhouse_erasures e
            WHERE e.issued_at IS NULL AND e.qr_code_id = ANY(clickhouse_export_outbox.code_ids)
              AND clickhouse_export_outbox.first_scanned_at < e.before AND NOT clickhouse_export_outbox.batch_id = ANY(e.waits_for)
          )`,
        )
        .orderBy('stored_at')
        .limit(limit)
        .forUpdate()
        .skipLocked();
      const rows = await db
        .updateTable('clickhouse_export_outbox')
        .set((eb) => ({ claims: eb('claims', '+', 1), lease_expires_at: leaseUntil }))
        .where('batch_id', 'in', due)
        .returning(['batch_id', 'claims'])
        .execute();
      return rows.map((row) => ({ batchId: row.batch_id, claims: row.claims }));
    });
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

  /** Exported: the batches leave the outbox. */
  async finish(batchIds: readonly string[]): Promise<void> {
    await this.database.workerTransaction((tx) => tx.shared.deleteFrom('clickhouse_export_outbox').where('batch_id', 'in', batchIds).execute());
  }

  /** Not exported this time: the lease goes, and the batches are due again at `at`. */
  async postpone(batchIds: readonly string[], at: Date, error: string): Promise<void> {
    await this.database.workerTransaction((tx) =>
      tx.shared
        .updateTable('clickhouse_export_outbox')
        .set({ lease_expires_at: null, next_attempt_at: at, last_error: error.slice(0, 500) })
        .where('batch_id', 'in', batchIds)
        .execute(),
    );
  }

  /** What the queue holds (/metrics): batches due, the oldest one's wait, batches leased. */
  async depth(now: Date): Promise<QueueDepth> {
    return this.database.workerTransaction(async (tx) => {
      const result = await sql<{ ready: number; oldest: number | null; running: number }>`
        SELECT count(*) FILTER (WHERE next_attempt_at <= ${now}::timestamptz AND ${leaseIsFree('lease_expires_at', now)})::int AS ready,
          extract(epoch FROM ${now}::timestamptz - min(stored_at)
            FILTER (WHERE next_attempt_at <= ${now}::timestamptz AND ${leaseIsFree('lease_expires_at', now)}))::float8 AS oldest,
          count(*) FILTER (WHERE lease_expires_at > ${now}::timestamptz)::int AS running
        FROM clickhouse_export_outbox`.execute(tx.shared);
      const row = result.rows[0];
      return { ready: Number(row.ready), oldestReadySeconds: Math.max(0, Number(row.oldest ?? 0)), running: Number(row.running) };
    });
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
