import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { PrismaService } from '../infra/database/prisma.service';

const VISITOR_SECRET = 'visitor_hash_secret';

const STORE_BATCH = `
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

/** Scan persistence: batched and idempotent, so re-flushing a batch after a crash counts nothing twice. */
@Injectable()
export class ScanStoreRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Inserts a batch of scans, given as one JSON array of StoredScan (StoredScanWriter), skipping ones already
   * stored and ones of deleted codes, and adds the inserted non-bot scans to each code's `scans`, in
   * one statement: one round trip per batch and no row lock held per scan. The batch goes as one
   * JSON text, far cheaper to build and send than ten arrays of bind values, and outside Prisma,
   * which copies and re-encodes a parameter of that size (a tenth of a redirect's CPU); a Buffer
   * read from the Redis queue goes to Postgres as it is. Each code of the batch is locked once (FOR
   * KEY SHARE, in id order), in place of a foreign-key check per row: a delete of the code waits for
   * this statement, and its trigger then removes what it stored (migration 20261122160000). Returns,
   * per code, the non-bot scans of the batch (stored now or before): what leaves the pending
   * counts. Rows that name no code (a format this version does not read) come back under codeId null.
   */
  async store(batchJson: string | Buffer): Promise<Array<{ codeId: string | null; scans: number; rows: number }>> {
    // pg sends a Buffer in binary format, which for json is its UTF-8 text; PGlite would take it for bytea.
    const batch = typeof batchJson === 'string' || this.prisma.kind === 'postgres' ? batchJson : batchJson.toString('utf8');
    return this.prisma.sql.query<{ codeId: string | null; scans: number; rows: number }>(STORE_BATCH, [batch]);
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
