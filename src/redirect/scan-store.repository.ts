import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { PrismaService } from '../infra/database/prisma.service';
import type { ScanEvent } from './scan-event';
import { classifyUserAgent } from './user-agent-class';

const VISITOR_SECRET = 'visitor_hash_secret';

/** Scan persistence: batched and idempotent, so re-flushing a batch after a crash counts nothing twice. */
@Injectable()
export class ScanStoreRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Inserts the events (skipping ones already stored and ones of deleted codes) and adds the
   * inserted non-bot events to each code's `scans`, in one statement: one round trip per batch
   * and no row lock held per scan. Returns the number of events inserted.
   */
  async store(events: ScanEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const classes = events.map((event) => classifyUserAgent(event.userAgent, event.isBot));
    const [result] = await this.prisma.$queryRaw<Array<{ inserted: bigint }>>`
      WITH batch AS (
        SELECT * FROM unnest(
          ${events.map((e) => e.eventId)}::uuid[], ${events.map((e) => e.codeId)}::uuid[],
          ${events.map((e) => new Date(e.at).toISOString())}::timestamptz[],
          ${events.map((e) => e.userAgent)}::text[], ${events.map((e) => e.referrer)}::text[],
          ${classes.map((c) => c.device)}::text[], ${classes.map((c) => c.os)}::text[], ${classes.map((c) => c.browser)}::text[],
          ${events.map((e) => e.visitorHash)}::text[], ${events.map((e) => e.isBot)}::boolean[]
        ) AS e(event_id, qr_code_id, scanned_at, user_agent, referrer, device, os, browser, visitor_hash, is_bot)
      ),
      inserted AS (
        INSERT INTO scan_events (event_id, qr_code_id, scanned_at, user_agent, referrer, device, os, browser, visitor_hash, is_bot)
        SELECT b.* FROM batch b WHERE EXISTS (SELECT 1 FROM qr_codes q WHERE q.id = b.qr_code_id)
        ON CONFLICT (event_id) DO NOTHING
        RETURNING qr_code_id, is_bot
      ),
      counted AS (
        UPDATE qr_codes q SET scans = q.scans + c.n
        FROM (SELECT qr_code_id, count(*) AS n FROM inserted WHERE NOT is_bot GROUP BY qr_code_id) c
        WHERE q.id = c.qr_code_id
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM inserted) AS inserted, (SELECT count(*) FROM counted) AS codes`;
    return Number(result.inserted);
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
