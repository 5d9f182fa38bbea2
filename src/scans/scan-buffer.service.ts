import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { QrCodeId } from '../common/ids/resource-ids';
import { ReadWriteGate } from '../common/concurrency/read-write-gate';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { isRefusedData } from '../infra/database/refused-data';
import { MetricsService } from '../infra/observability/metrics.service';
import { RedisConnection } from '../infra/redis/redis.module';
import type { ScanCounts } from './scan-counts';
import { FileScanStaging } from './file-scan-staging';
import { RedisScanStaging } from './redis-scan-staging';
import { inStoreGroups, rowsOf, type ScanBatch, ScanBatchWriter } from './scan-batch';
import type { ScanEvent } from './scan-event';
import { addCounts, type ScanStaging, type StagedBatchStore } from './scan-staging';
import { ScanStoreRepository } from './scan-store.repository';
import { VisitorHasher } from './visitor-hash';

/** Recorded scans are handed on this often: the redirect never waits for Postgres or Redis. */
const HAND_ON_INTERVAL_MS = 100;
/** Staged batches are drained this often. */
const DRAIN_INTERVAL_MS = 1000;
/** Scans per batch at most. */
const BATCH_SIZE = 5000;
/** After Postgres failed a hand-on, batches go straight to staging this long before Postgres is tried again. */
const DIRECT_STORE_BACKOFF_MS = 5000;
/** A read of `scans` waits at most this long for a store's commit before it reads anyway (see readWithPending). */
const READ_GATE_WAIT_MS = 250;
/** Memory bound for scans nothing would take (Postgres, Redis and the spill file all failing). */
const MAX_HELD_SCANS = 200_000;
/** Ids of stored batches are forgotten after a day, checked this often. */
const BATCH_ID_RETENTION_MS = 86_400_000;
const BATCH_ID_SWEEP_INTERVAL_MS = 3_600_000;

/**
 * Scan recording without a row lock per scan (docs/scans-and-privacy.md). A redirect appends its
 * event to an in-process list and returns. Every 100 ms the list is written as batches (ScanBatch)
 * and stored in Postgres (ScanStoreRepository). Batches Postgres does not take are staged: in
 * Redis when configured and up (shared by every instance), else in a spill file in DATA_DIR; a
 * drain stores them later. Storing is idempotent (batch ids), so a batch stored twice counts once.
 *
 * `scans` read through the API includes every served scan: stored ones, and pending ones (here,
 * staged in Redis, or in spill files). A batch moves from pending to stored in one step as a read
 * sees it (the gate: a direct store's commit and the release of its pending count, or a drain's
 * store and settle, exclude reads). No lock is held across an unbounded wait: every store is
 * bounded by the database budgets, and a read waits for a commit at most READ_GATE_WAIT_MS.
 *
 * Shutdown hands everything on, within the shutdown budget; whatever is left is written to the
 * spill file synchronously (spillSync), and replayed at the next start.
 */
@Injectable()
export class ScanBuffer implements ScanCounts, OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('ScanBuffer');
  private local: ScanEvent[] = [];
  /** Batches written and not yet stored or staged: a hand-on's in flight, or kept after every way on failed. */
  private held: ScanBatch[] = [];
  /** Non-bot scans per code in `local` and `held`. */
  private readonly localPending = new Map<QrCodeId, number>();
  private readonly spill: FileScanStaging;
  /** Where batches go that Postgres does not take, in order of preference. */
  private readonly stagings: ScanStaging[];
  private timers: NodeJS.Timeout[] = [];
  /** The hand-on in flight: hand-ons never overlap, and a slow Postgres makes the timer skip ticks rather than queue them. */
  private handingOn: Promise<void> | null = null;
  private draining: Promise<void> | null = null;
  private storeDirectlyAfter = 0;
  private readonly gate = new ReadWriteGate();
  private readonly writer: ScanBatchWriter;
  private readonly shutdownBudgetMs: number;

  constructor(
    private readonly store: ScanStoreRepository,
    private readonly redis: RedisConnection,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly visitors: VisitorHasher,
  ) {
    this.writer = new ScanBatchWriter(visitors);
    this.spill = new FileScanStaging(config.scanSpillDir, this.logger);
    this.stagings = redis.client ? [new RedisScanStaging(redis, this.logger), this.spill] : [this.spill];
    // Half the shutdown budget: the rest is for the server to close, the pools to end and the process to exit.
    this.shutdownBudgetMs = Math.max(1000, Math.floor(config.shutdownTimeoutMs / 2));
  }

  /**
   * Loads the secret behind visitor hashes first: without it no scan can be written (an unreachable
   * database fails the start, as any first query would).
   */
  async onModuleInit(): Promise<void> {
    await this.visitors.ready();
    this.timers.push(setInterval(() => void this.handOnUnlessBusy(), HAND_ON_INTERVAL_MS));
    this.timers.push(setInterval(() => void this.drainUnlessBusy(), DRAIN_INTERVAL_MS));
    this.timers.push(setInterval(() => void this.forgetOldBatchIds(), BATCH_ID_SWEEP_INTERVAL_MS));
    for (const timer of this.timers) timer.unref();
  }

  /** The hot path: no I/O, no promise. */
  record(event: ScanEvent): void {
    this.local.push(event);
    if (!event.isBot) this.localPending.set(event.codeId, (this.localPending.get(event.codeId) ?? 0) + 1);
  }

  /**
   * Reads stored codes and their pending scans as one step: no store of this instance commits
   * between the two reads. A store whose commit hangs (a dead link, until the database budget ends
   * it) holds the read up only READ_GATE_WAIT_MS; the read then goes ahead, which at worst counts
   * that batch twice for as long as its commit is in doubt.
   */
  readWithPending<T>(read: () => Promise<T>, codeIdsOf: (result: T) => QrCodeId[]): Promise<{ result: T; pending: Map<string, number> }> {
    return this.gate.read(async () => {
      const result = await read();
      return { result, pending: await this.pendingCounts(codeIdsOf(result)) };
    }, READ_GATE_WAIT_MS);
  }

  private async pendingCounts(codeIds: QrCodeId[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (codeIds.length === 0) return counts;
    for (const id of codeIds) counts.set(id, this.localPending.get(id) ?? 0);
    const staged = await Promise.all(this.stagings.map((staging) => staging.pendingCounts(codeIds)));
    for (const stagedCounts of staged) for (const [id, n] of stagedCounts) counts.set(id, (counts.get(id) ?? 0) + n);
    return counts;
  }

  /**
   * Hands every recorded scan on and drains the stagings (tests, shutdown), waiting while another
   * instance drains the shared one; gives up after `maxWaitMs`.
   */
  async flush(maxWaitMs = 5000): Promise<void> {
    const deadline = Date.now() + maxWaitMs;
    await withinTime(this.handOnOnce(), maxWaitMs);
    await withinTime(this.drainOnce(deadline), Math.max(0, deadline - Date.now()));
    const shared = this.stagings.find((staging): staging is RedisScanStaging => staging instanceof RedisScanStaging);
    while (shared?.available() && Date.now() < deadline) {
      if (!(await shared.busy().catch(() => false))) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
      await withinTime(this.drainOnce(deadline), Math.max(0, deadline - Date.now()));
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.flush(this.shutdownBudgetMs).catch((error: Error) => this.logger.error(`Scans not handed on at shutdown: ${error.message}`));
    this.spillSync();
  }

  /**
   * Writes every scan still in memory to the spill file, without yielding: the last resort when the
   * process must end (shutdown, or its hard deadline). Batches in flight are written too; if their
   * store commits after all, the replay finds them claimed and stores them once.
   */
  spillSync(): void {
    this.writeLocalEvents();
    if (this.held.length === 0) return;
    try {
      this.spill.stageSync(this.held);
      this.logger.warn(
        `${this.held.reduce((sum, batch) => sum + rowsOf(batch), 0)} scans written to the spill file; they are stored at the next start`,
      );
      this.settleHeld(this.held);
    } catch (error) {
      this.logger.error(`Scans could not be written to the spill file and are lost: ${(error as Error).message}`);
    }
  }

  private handOnUnlessBusy(): void {
    if (!this.handingOn && (this.local.length > 0 || this.held.length > 0)) void this.handOnOnce();
  }

  private drainUnlessBusy(): void {
    if (!this.draining) void this.drainOnce();
  }

  /** Runs one hand-on once any in flight has finished. */
  private async handOnOnce(): Promise<void> {
    while (this.handingOn) await this.handingOn;
    const run = this.handOn()
      .catch((error: Error) => this.logger.warn(`Scan hand-on failed: ${error.message}`))
      .finally(() => (this.handingOn = null));
    this.handingOn = run;
    await run;
  }

  /** Stores held batches in Postgres, else stages them; what nothing takes stays held for the next hand-on. */
  private async handOn(): Promise<void> {
    await this.visitors.ready();
    this.writeLocalEvents();
    if (this.held.length === 0) return;
    let storeError: Error | undefined;
    if (Date.now() >= this.storeDirectlyAfter) {
      try {
        for (const group of inStoreGroups(this.held)) await this.storeDirectly(group);
        return;
      } catch (error) {
        storeError = error as Error;
        this.storeDirectlyAfter = Date.now() + DIRECT_STORE_BACKOFF_MS;
      }
    }
    const batches = [...this.held];
    for (const staging of this.stagings) {
      if (!staging.available()) continue;
      try {
        await this.gate.write(async () => {
          await staging.stage(batches);
          this.settleHeld(batches);
        });
        if (storeError) this.logger.warn(`Scans staged (${staging.name}) for a later store: ${storeError.message}`);
        return;
      } catch (error) {
        if (staging instanceof RedisScanStaging) this.redis.markDown(error as Error);
        this.logger.error(`Scans could not be staged (${staging.name}): ${(error as Error).message}`);
      }
    }
    this.keepWithinBound();
  }

  /**
   * Stores batches; each one's pending count is released in the same step as its commit. Batches
   * Postgres refuses as data are stored one by one, and those it still refuses set aside, so one
   * bad batch holds up no other.
   */
  private async storeDirectly(batches: ScanBatch[]): Promise<void> {
    const releasing = (stored: ScanBatch[]) => ({
      commitGuard: (commit: () => Promise<void>) =>
        this.gate.write(async () => {
          await commit();
          this.settleHeld(stored);
        }),
    });
    try {
      this.metrics.scansFlushed.inc(await this.store.storeBatches(batches, releasing(batches)));
    } catch (error) {
      if (!isRefusedData(error)) throw error;
      for (const batch of batches) {
        try {
          this.metrics.scansFlushed.inc(await this.store.storeBatches([batch], releasing([batch])));
        } catch (single) {
          if (!isRefusedData(single)) throw single;
          await this.setAside([batch]);
          this.settleHeld([batch]);
        }
      }
    }
  }

  /** Drains the stagings into Postgres, once any drain in flight has finished. */
  private async drainOnce(deadline = Infinity): Promise<void> {
    while (this.draining) await this.draining;
    const run = (async () => {
      for (const staging of this.stagings) {
        if (!staging.available()) continue;
        try {
          await staging.drain(this.storeStaged, deadline);
        } catch (error) {
          this.logger.warn(`Staged scans (${staging.name}) not stored this time: ${(error as Error).message}`);
        }
      }
    })().finally(() => (this.draining = null));
    this.draining = run;
    await run;
  }

  /** Stores staged batches and settles them (their pending counts) in one step as reads see it. */
  private readonly storeStaged: StagedBatchStore = (batches, settle) =>
    this.gate.write(async () => {
      const refused: ScanBatch[] = [];
      try {
        this.metrics.scansFlushed.inc(await this.store.storeBatches(batches));
      } catch (error) {
        if (!isRefusedData(error)) throw error;
        for (const batch of batches) {
          try {
            this.metrics.scansFlushed.inc(await this.store.storeBatches([batch]));
          } catch (single) {
            if (!isRefusedData(single)) throw single;
            refused.push(batch);
          }
        }
      }
      await settle();
      return { refused };
    });

  private async setAside(batches: ScanBatch[]): Promise<void> {
    const staging = this.stagings.find((candidate) => candidate.available()) ?? this.spill;
    await staging.setAside(batches);
  }

  private writeLocalEvents(): void {
    const events = this.local;
    this.local = [];
    if (events.length > 0) this.metrics.scansBuffered.inc(events.length);
    for (let start = 0; start < events.length; start += BATCH_SIZE) {
      const chunk = events.slice(start, start + BATCH_SIZE);
      try {
        this.held.push(this.writer.write(chunk));
      } catch (error) {
        this.logger.error(`${chunk.length} scans dropped: they could not be written (${(error as Error).message})`);
        for (const event of chunk) if (!event.isBot) this.lowerPending(event.codeId, 1);
      }
    }
  }

  /** Batches that left memory (stored, staged or set aside): they no longer count as held. */
  private settleHeld(batches: ScanBatch[]): void {
    const gone = new Set(batches);
    this.held = this.held.filter((batch) => !gone.has(batch));
    addCounts(this.localPending, batches, -1);
  }

  /** Everything failed, even the spill file: keeps the newest scans within the memory bound. */
  private keepWithinBound(): void {
    let scans = this.held.reduce((sum, batch) => sum + rowsOf(batch), 0);
    while (scans > MAX_HELD_SCANS && this.held.length > 1) {
      const dropped = this.held[0];
      scans -= rowsOf(dropped);
      this.logger.error(`Scan buffer full: the database, Redis and the spill file all failed; ${rowsOf(dropped)} scans dropped`);
      this.settleHeld([dropped]);
    }
  }

  private lowerPending(codeId: QrCodeId, n: number): void {
    const left = (this.localPending.get(codeId) ?? 0) - n;
    if (left > 0) this.localPending.set(codeId, left);
    else this.localPending.delete(codeId);
  }

  private async forgetOldBatchIds(): Promise<void> {
    try {
      await this.store.forgetBatchesStoredBefore(new Date(Date.now() - BATCH_ID_RETENTION_MS));
    } catch (error) {
      this.logger.warn(`Ids of stored scan batches not swept this time: ${(error as Error).message}`);
    }
  }
}

/** Waits for `work` at most `ms` (it goes on in the background). */
async function withinTime(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}
