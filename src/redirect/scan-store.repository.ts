import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { PrismaService } from '../infra/database/prisma.service';
import type { ScanEvent } from './scan-event';
import { classifyUserAgent, UserAgentClass } from './user-agent-class';

const VISITOR_SECRET = 'visitor_hash_secret';

const toRow = (event: ScanEvent, { device, os, browser }: UserAgentClass) => ({
  event_id: event.eventId,
  qr_code_id: event.codeId,
  scanned_at: new Date(event.at).toISOString(),
  user_agent: event.userAgent,
  referrer: event.referrer,
  device,
  os,
  browser,
  visitor_hash: event.visitorHash,
  is_bot: event.isBot,
});

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
    // A batch repeats a few user agents many times; parsing one is costly.
    const classes = new Map<string, UserAgentClass>();
    const classOf = (event: ScanEvent): UserAgentClass => {
      const key = `${event.isBot ? 'bot' : 'human'}:${event.userAgent ?? ''}`;
      let found = classes.get(key);
      if (!found) classes.set(key, (found = classifyUserAgent(event.userAgent, event.isBot)));
      return found;
    };
    // One JSON text parameter: far cheaper to build and send than ten arrays of bind values.
    const batch = JSON.stringify(events.map((event) => toRow(event, classOf(event))));
    const [result] = await this.prisma.$queryRaw<Array<{ inserted: bigint }>>`
      WITH batch AS (
        SELECT * FROM json_to_recordset(${batch}::json) AS e(event_id uuid, qr_code_id uuid, scanned_at timestamptz, user_agent text,
          referrer text, device text, os text, browser text, visitor_hash text, is_bot boolean)
      ),
      inserted AS (
        INSERT INTO scan_events (event_id, qr_code_id, scanned_at, user_agent, referrer, device, os, browser, visitor_hash, is_bot)
        SELECT b.event_id, b.qr_code_id, b.scanned_at, b.user_agent, b.referrer, b.device, b.os, b.browser, b.visitor_hash, b.is_bot
        FROM batch b WHERE EXISTS (SELECT 1 FROM qr_codes q WHERE q.id = b.qr_code_id)
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
