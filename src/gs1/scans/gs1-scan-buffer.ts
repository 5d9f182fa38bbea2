import { type BeforeApplicationShutdown, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Gs1ItemId } from '../../common/ids/resource-ids';
import { VisitorHasher } from '../../scans';
import type { Gs1Scan, StoredGs1Scan } from './gs1-scan';
import { Gs1ScansRepository } from './gs1-scans.repository';

/** Recorded scans are stored this often: a resolution never waits for Postgres. */
const FLUSH_INTERVAL_MS = 250;
/** Rows per INSERT at most (10 parameters a row, below Postgres's 65,535). */
const BATCH_SIZE = 2000;
/** Memory bound for scans Postgres does not take (an outage): beyond it the oldest are dropped, and counted in the log. */
const MAX_HELD_SCANS = 200_000;

/**
 * GS1 resolutions on their way to Postgres (docs/gs1-digital-link.md#scans), as the scan pipeline
 * takes a code's scans (src/scans/scan-buffer.service.ts): the hot path appends to an in-process
 * list; every 250 ms the list is written as batches, the visitor hashed with the scan pipeline's
 * VisitorHasher, and stored with the items' counters in one transaction. A batch Postgres refuses
 * is kept and tried again (up to MAX_HELD_SCANS); shutdown stores what is left.
 */
@Injectable()
export class Gs1ScanBuffer implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('Gs1ScanBuffer');
  private local: Gs1Scan[] = [];
  /** Non-bot scans per item recorded and not yet stored: added to the item's `scans` as read. */
  private readonly pending = new Map<Gs1ItemId, number>();
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: Gs1ScansRepository,
    private readonly visitors: VisitorHasher,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.visitors.ready();
    this.timer = setInterval(() => void this.flushUnlessBusy(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flushUnlessBusy();
    if (this.local.length > 0) await this.flushUnlessBusy();
  }

  /** The hot path: no I/O, no promise. */
  record(scan: Gs1Scan): void {
    this.local.push(scan);
    if (!scan.isBot) this.pending.set(scan.itemId, (this.pending.get(scan.itemId) ?? 0) + 1);
  }

  /** Non-bot scans of an item not stored yet. */
  pendingOf(itemId: Gs1ItemId): number {
    return this.pending.get(itemId) ?? 0;
  }

  /** Stores everything recorded so far (tests and shutdown); a flush in flight is waited for first. */
  async flush(): Promise<void> {
    if (this.flushing) await this.flushing;
    await this.flushUnlessBusy();
  }

  private flushUnlessBusy(): Promise<void> {
    if (this.flushing || this.local.length === 0) return this.flushing ?? Promise.resolve();
    this.flushing = this.storeAll().finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async storeAll(): Promise<void> {
    while (this.local.length > 0) {
      const batch = this.local.slice(0, BATCH_SIZE);
      try {
        await this.store.store(batch.map((scan) => this.stored(scan)));
      } catch (error) {
        this.logger.warn(`GS1 scans not stored yet (${this.local.length} held): ${(error as Error).message}`);
        this.dropBeyondBound();
        return;
      }
      this.local = this.local.slice(batch.length);
      for (const scan of batch) if (!scan.isBot) this.settle(scan.itemId);
    }
  }

  private stored(scan: Gs1Scan): StoredGs1Scan {
    const { ip, userAgent, ...kept } = scan;
    return { ...kept, visitorHash: this.visitors.hash(scan.at, ip, userAgent) };
  }

  private settle(itemId: Gs1ItemId): void {
    const left = (this.pending.get(itemId) ?? 1) - 1;
    if (left > 0) this.pending.set(itemId, left);
    else this.pending.delete(itemId);
  }

  private dropBeyondBound(): void {
    const excess = this.local.length - MAX_HELD_SCANS;
    if (excess <= 0) return;
    for (const scan of this.local.slice(0, excess)) if (!scan.isBot) this.settle(scan.itemId);
    this.local = this.local.slice(excess);
    this.logger.error(`${excess} GS1 scans dropped: Postgres took none for too long`);
  }
}
