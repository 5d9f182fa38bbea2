import { Inject, Injectable } from '@nestjs/common';
import type { WebhookEventId } from '../common/ids/resource-ids';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { runsJobs } from '../config/process-role';
import { createLru } from '../infra/cache/lru';

/** Bodies kept at most this long: a delivery is normally claimed within a second of its event's commit. */
const KEEP_MS = 60_000;
/** And at most this many characters in all (a busy code's qrcode.scanned body is about 200 KB). */
const MAX_CHARS = 32 * 1024 * 1024;

/**
 * The bodies of the events this instance wrote lately, for its own delivery worker: a claim then
 * need not read them back from the outbox, which for a busy code's scans is most of the bytes a
 * delivery moves (docs/webhooks.md). A body not here (another instance wrote it, or it went) is
 * read from the database. Bodies are kept before their transaction commits: one that rolls back has
 * no delivery to claim it, and goes with time. Nothing is kept in an `api` process, which delivers nothing.
 */
@Injectable()
export class RecentEventBodies {
  private readonly bodies = createLru<string>({ max: 100_000, ttl: KEEP_MS, maxSize: { total: MAX_CHARS, of: (body) => Math.max(1, body.length) } });
  private readonly enabled: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.enabled = runsJobs(config.role);
  }

  keep(events: ReadonlyArray<{ id: WebhookEventId; body: string }>): void {
    if (!this.enabled) return;
    for (const event of events) if (event.body.length <= MAX_CHARS) this.bodies.set(event.id, event.body);
  }

  get(id: WebhookEventId): string | undefined {
    return this.bodies.get(id);
  }
}
