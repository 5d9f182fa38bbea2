import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { PrismaService } from '../infra/database/prisma.service';
import { SCAN_EVENT_COLUMNS, ScanBatch, sumByCode } from './scan-batch';

const VISITOR_SECRET = 'visitor_hash_secret';

/** Batches of earlier versions' queues (a JSON array of StoredScan), replayed safely by each event's id. */
const STORE_JSON_BATCH = `
  WITH batch AS (
    SELECT * FROM json_to_recordset($1::json) AS e(event_id uuid, qr_code_id uuid, scanned_at timestamptz,
      user_agent text, referrer text, device text, os text, browser text, visitor_hash text, is_bot boolean)
  ),
  live_codes AS (
    SELECT q.id FROM qr_codes q WHERE q.id IN (SELECT qr_code_id FROM batch) ORDER BY q.id FOR KEY SHARE
  ),
  inserted AS (
    INSERT INTO scan_events (event_id, qr_code_id, scanned_at, user_agent, referrer, device, os, browser, visitor_hash, is_bot)
    SELECT b.event_id, b.qr_code_id, b.scanned_at, b.user_agent, b.referrer, b.device, b.os, b.browser, b.visitor_hash, b.is_bot
    FROM batch b WHERE b.qr_code_id IN (SELECT id FROM live_codes)
    ON CONFLICT (qr_code_id, scanned_at, event_id) DO NOTHING
    RETURNING qr_code_id, is_bot
  ),
  counted AS (
    UPDATE qr_codes q SET scans = q.scans + c.n
    FROM (SELECT qr_code_id, count(*) AS n FROM inserted WHERE NOT is_bot GROUP BY qr_code_id) c
    WHERE q.id = c.qr_code_id
  )
  SELECT qr_code_id::text AS "codeId", (count(*) FILTER (WHERE NOT is_bot))::int AS scans, count(*)::int AS rows
  FROM batch GROUP BY qr_code_id`;

/** Bounds a store (and so the flush lock it runs under, 30 s) when Postgres stalls instead of refusing. */
const STORE_TIMEOUT = `SET LOCAL statement_timeout = '10s'`;
const CLAIM_BATCHES = `INSERT INTO scan_batches (id) SELECT unnest($1::uuid[]) ON CONFLICT (id) DO NOTHING RETURNING id::text AS id`;
/** Each code once, in id order (no deadlock between flushes), in place of a foreign-key check per row. */
const LOCK_CODES = `SELECT id::text AS id FROM qr_codes WHERE id = ANY($1::uuid[]) ORDER BY id FOR KEY SHARE`;
const COPY_SCAN_EVENTS = `COPY scan_events (${SCAN_EVENT_COLUMNS.join(', ')}) FROM STDIN`;
const DROP_SCANS_OF = `DELETE FROM scan_events WHERE qr_code_id = ANY($1::uuid[])`;
/** The UPDATE below locks rows in whatever order its plan visits them: taken here in id order first, so concurrent stores never wait on each other in a cycle. */
const LOCK_COUNTERS = `SELECT id FROM qr_codes WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`;
const ADD_SCANS = `UPDATE qr_codes q SET scans = q.scans + c.n FROM unnest($1::uuid[], $2::bigint[]) AS c(id, n) WHERE q.id = c.id`;

/** Scan persistence: batched and idempotent, so storing a batch again after a crash counts nothing twice. */
@Injectable()
export class ScanStoreRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Stores batches of scans in one transaction: claims their ids (a batch already stored, or given
   * twice, is stored once), locks each of their codes once (FOR KEY SHARE), COPYs their rows, drops
   * the rows of codes deleted meanwhile, and adds each code's scans to its `scans`. No row lock is
   * held per scan, and COPY costs Postgres about half of an INSERT of the same rows. A delete of a
   * code waits for the lock, and its trigger then removes what this stored (migration
   * 20261122160000). Returns the rows stored now.
   */
  async storeBatches(batches: readonly ScanBatch[]): Promise<number> {
    if (batches.length === 0) return 0;
    return this.prisma.sql.transaction(async (tx) => {
      await tx.query(STORE_TIMEOUT);
      const claimed = new Set((await tx.query<{ id: string }>(CLAIM_BATCHES, [batches.map((batch) => batch.id)])).map((row) => row.id));
      // A batch staged twice (a Redis write retried after its timeout) can come twice in one read: the first copy goes.
      const fresh = batches.filter((batch) => claimed.delete(batch.id));
      if (fresh.length === 0) return 0;
      const codes = sumByCode(fresh);
      const live = new Set((await tx.query<{ id: string }>(LOCK_CODES, [[...codes.keys()]])).map((row) => row.id));
      await tx.copyFrom(COPY_SCAN_EVENTS, fresh.map((batch) => batch.rows));
      const gone = [...codes.keys()].filter((id) => !live.has(id));
      if (gone.length > 0) await tx.query(DROP_SCANS_OF, [gone]);
      const counted = [...codes.values()].filter((code) => live.has(code.codeId) && code.scans > 0);
      if (counted.length > 0) {
        const ids = counted.map((code) => code.codeId);
        await tx.query(LOCK_COUNTERS, [ids]);
        await tx.query(ADD_SCANS, [ids, counted.map((code) => code.scans)]);
      }
      return [...codes.values()].reduce((sum, code) => sum + (live.has(code.codeId) ? code.rows : 0), 0);
    });
  }

  /** Forgets the ids of batches stored before `cutoff`: a replay comes within seconds, the ids would otherwise pile up. */
  async forgetBatchesStoredBefore(cutoff: Date): Promise<void> {
    await this.prisma.sql.query('DELETE FROM scan_batches WHERE stored_at < $1', [cutoff]);
  }

  /**
   * Stores a batch staged by an earlier version (a JSON array of StoredScan), skipping events
   * already stored (by event id) and ones of deleted codes, and adds the inserted non-bot scans to
   * each code's `scans`, in one statement. A Buffer read from the Redis queue goes to Postgres as
   * it is. Returns, per code, the non-bot scans of the batch (stored now or before): what leaves
   * the pending counts. Rows that name no code (a format this version does not read) come back
   * under codeId null.
   */
  async storeJsonBatch(batchJson: string | Buffer): Promise<Array<{ codeId: string | null; scans: number; rows: number }>> {
    // pg sends a Buffer in binary format, which for json is its UTF-8 text; PGlite would take it for bytea.
    const batch = typeof batchJson === 'string' || this.prisma.kind === 'postgres' ? batchJson : batchJson.toString('utf8');
    return this.prisma.sql.query<{ codeId: string | null; scans: number; rows: number }>(STORE_JSON_BATCH, [batch]);
  }

  /** The per-deployment secret behind visitor hashes, created on first use (the first instance wins). */
  async visitorSecret(): Promise<string> {
    await this.prisma.serviceSetting.createMany({
      data: [{ name: VISITOR_SECRET, value: randomBytes(32).toString('hex') }],
      skipDuplicates: true,
    });
    return (await this.prisma.serviceSetting.findUniqueOrThrow({ where: { name: VISITOR_SECRET } })).value;
  }
}
