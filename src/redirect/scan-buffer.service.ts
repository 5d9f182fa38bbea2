import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ReadWriteGate } from '../common/concurrency/read-write-gate';
import { MetricsService } from '../infra/observability/metrics.service';
import { RedisConnection } from '../infra/redis/redis.module';
import { CodeScans, decodeStagedBatch, encodeStagedBatch, ScanBatch, ScanBatchWriter, sumByCode } from './scan-batch';
import { ScanEvent, StoredScanWriter } from './scan-event';
import { ScanStoreRepository } from './scan-store.repository';

/** One entry per staged batch: a ScanBatch (encodeStagedBatch). */
const QUEUE_KEY = 'scans:queue:v4';
/**
 * Queues of earlier versions, drained first (instances of both versions run side by side during a
 * deploy): one scan per entry, in its recorded form (ScanEvent) or its stored row form, or a JSON
 * array of stored rows per entry.
 */
const LEGACY_QUEUES = [
  { key: 'scans:queue', form: 'recorded' },
  { key: 'scans:queue:v2', form: 'stored' },
  { key: 'scans:queue:v3', form: 'array' },
] as const;
const PENDING_KEY = 'scans:pending';
const FLUSH_LOCK_KEY = 'scans:flush-lock';
/** Local events are handed on this often: the redirect never waits for Postgres or Redis. */
const HAND_ON_INTERVAL_MS = 100;
/** The Redis queue (batches Postgres did not take when they were handed on) is drained this often. */
const DRAIN_INTERVAL_MS = 1000;
/** Scans per batch at most (a staged entry); legacy entries of one scan each are read this many at a time. */
const BATCH_SIZE = 5000;
/** Batches stored in one transaction: up to about this many bytes of rows (~300 bytes a scan)... */
const MAX_STORE_BYTES = 1024 * 1024;
/** ...and at most this many staged entries read at once. */
const MAX_ENTRIES_PER_STORE = 20;
/** Lowers pending counts after a flush and drops fields that reach zero (the hash would otherwise keep every code ever scanned). */
const RELEASE_PENDING = `
for i = 1, #ARGV, 2 do
  if redis.call('HINCRBY', KEYS[1], ARGV[i], -tonumber(ARGV[i + 1])) <= 0 then redis.call('HDEL', KEYS[1], ARGV[i]) end
end
return 0`;
/** Memory bound for scans that could be handed nowhere (Redis and Postgres both down). */
const MAX_LOCAL_EVENTS = 200_000;
/** Ids of stored batches are forgotten after a day, checked this often. */
const BATCH_ID_RETENTION_MS = 86_400_000;
const BATCH_ID_SWEEP_INTERVAL_MS = 3_600_000;

/**
 * Scan recording without a row lock per scan (design §6). A redirect appends its event to an
 * in-process list and returns. With Redis, the list is written as a batch every 50 ms and staged in
 * a Redis list shared by all instances (with per-code pending counts), and one instance at a time
 * (lock) moves staged batches to Postgres, several per transaction. Without Redis, batches go
 * straight to Postgres. Storing is idempotent (batch ids), so a batch re-read after a crash is not
 * counted twice; a batch that could be handed nowhere is kept, as written, and tried again.
 * `readWithPending` lets the API add scans not yet in Postgres, so every completed redirect shows
 * in `scans`. Shutdown hands everything on.
 */
@Injectable()
export class ScanBuffer implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('ScanBuffer');
  private local: ScanEvent[] = [];
  /** Batches written but not yet handed on (Redis and Postgres failed): tried again as they are, so their ids keep them idempotent. */
  private unstored: ScanBatch[] = [];
  /** Non-bot events per code held in this process (local events and batches not yet handed on). */
  private readonly localPending = new Map<string, number>();
  private timers: NodeJS.Timeout[] = [];
  private draining = false;
  /**
   * Hand-ons and flushes (writers) exclude reads of stored and pending counts, so a read never
   * falls between a batch landing in its next store and its pending count being released (which
   * would count it twice, or not at all). Reads run side by side. Instances share no such gate:
   * across instances that window (milliseconds) remains.
   */
  private readonly gate = new ReadWriteGate();
  private readonly writer = new ScanBatchWriter();
  private readonly legacyWriter = new StoredScanWriter();

  constructor(
    private readonly store: ScanStoreRepository,
    private readonly redis: RedisConnection,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    const handOnIfAny = () => {
      if (this.local.length > 0 || this.unstored.length > 0) void this.exclusively(() => this.handOn());
    };
    this.timers.push(setInterval(handOnIfAny, HAND_ON_INTERVAL_MS));
    if (this.redis.client) this.timers.push(setInterval(() => void this.drainQueue(), DRAIN_INTERVAL_MS));
    this.timers.push(setInterval(() => void this.forgetOldBatchIds(), BATCH_ID_SWEEP_INTERVAL_MS));
    for (const timer of this.timers) timer.unref();
  }

  record(event: ScanEvent): void {
    if (this.local.length >= MAX_LOCAL_EVENTS) {
      this.logger.error('Scan buffer full: Redis and the database are unreachable; dropping the oldest scan');
      const dropped = this.local.shift() as ScanEvent;
      if (!dropped.isBot) this.lowerPending(dropped.codeId, 1);
    }
    this.local.push(event);
    if (!event.isBot) this.localPending.set(event.codeId, (this.localPending.get(event.codeId) ?? 0) + 1);
    this.metrics.scansBuffered.inc();
  }

  /**
   * Reads stored codes and their scans still in the buffer as one step: no flush of this process
   * can fall between the two reads (it would move scans from "pending" to "stored" unseen by both).
   */
  readWithPending<T>(read: () => Promise<T>, codeIdsOf: (result: T) => string[]): Promise<{ result: T; pending: Map<string, number> }> {
    return this.gate.read(async () => {
      const result = await read();
      return { result, pending: await this.readPendingCounts(codeIdsOf(result)) };
    });
  }

  private async readPendingCounts(codeIds: string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const id of codeIds) counts.set(id, this.localPending.get(id) ?? 0);
    if (this.redis.client && codeIds.length) {
      try {
        const shared = await this.redis.client.hmget(PENDING_KEY, ...codeIds);
        codeIds.forEach((id, index) => counts.set(id, (counts.get(id) ?? 0) + Number(shared[index] ?? 0)));
      } catch (error) {
        this.redis.markDown(error as Error);
      }
    }
    return counts;
  }

  /**
   * Hands every local event on and, with Redis, drains the shared queue into Postgres, waiting
   * while another instance holds the flush lock (tests, shutdown); gives up after `maxWaitMs`.
   */
  async flush(maxWaitMs = 5000): Promise<void> {
    await this.exclusively(() => this.handOn());
    const client = this.redis.background;
    if (!client) return;
    const deadline = Date.now() + maxWaitMs;
    while (this.redis.available && Date.now() < deadline) {
      const moved = await this.flushQueue();
      if (moved === 0 && (await this.queuedEntries(client)) === 0 && !(await client.exists(FLUSH_LOCK_KEY))) return;
      if (moved === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.flush().catch((error: Error) => this.logger.error(`Scans not flushed at shutdown: ${error.message}`));
  }

  private exclusively<T>(task: () => Promise<T>): Promise<T> {
    const run = this.gate.write(task);
    run.catch((error: Error) => this.logger.warn(`Scan buffer task failed: ${error.message}`));
    return run;
  }

  /**
   * Writes local events as batches and stores them, with any kept from before, in Postgres; what
   * Postgres does not take is staged in Redis (when there) for the drain, else kept for the next
   * hand-on. A batch whose store failed after all (the commit's answer lost) is stored once anyway:
   * its id was claimed.
   */
  private async handOn(): Promise<void> {
    for (let start = 0; start < this.local.length; start += BATCH_SIZE) this.unstored.push(this.writer.write(this.local.slice(start, start + BATCH_SIZE)));
    this.local = [];
    if (this.unstored.length === 0) return;
    const batches = this.unstored;
    this.unstored = [];
    try {
      for (const group of inStoreGroups(batches)) {
        this.metrics.scansFlushed.inc(await this.store.storeBatches(group));
        this.forget(group);
        batches.splice(0, group.length);
      }
      return;
    } catch (storeError) {
      if (this.redis.client && this.redis.available) {
        try {
          await this.stageInRedis(batches);
          return this.forget(batches);
        } catch (error) {
          this.redis.markDown(error as Error);
        }
      }
      this.logger.warn(`Scans kept in memory, will retry: ${(storeError as Error).message}`);
      this.keep(batches);
    }
  }

  /** Keeps batches for the next hand-on, within the memory bound (the oldest go first). */
  private keep(batches: ScanBatch[]): void {
    this.unstored = batches.concat(this.unstored);
    let rows = this.unstored.reduce((sum, batch) => sum + batch.codes.reduce((n, code) => n + code.rows, 0), 0);
    while (rows > MAX_LOCAL_EVENTS && this.unstored.length > 1) {
      const dropped = this.unstored.shift() as ScanBatch;
      rows -= dropped.codes.reduce((n, code) => n + code.rows, 0);
      this.logger.error('Scan buffer full: Redis and the database are unreachable; dropping the oldest batch of scans');
      this.forget([dropped]);
    }
  }

  private async queuedEntries(client: NonNullable<RedisConnection['background']>): Promise<number> {
    const lengths = await Promise.all([QUEUE_KEY, ...LEGACY_QUEUES.map((queue) => queue.key)].map((key) => client.llen(key)));
    return lengths.reduce((sum, n) => sum + n, 0);
  }

  private async stageInRedis(batches: ScanBatch[]): Promise<void> {
    const client = this.redis.background!;
    const multi = client.multi().rpush(QUEUE_KEY, ...batches.map(encodeStagedBatch));
    for (const code of sumByCode(batches).values()) if (code.scans > 0) multi.hincrby(PENDING_KEY, code.codeId, code.scans);
    const results = await multi.exec();
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw failed?.[0] ?? new Error('Redis transaction aborted');
  }

  /**
   * Moves staged scans from the shared queue while there are any, so the store keeps up with any
   * scan rate (one transaction per tick would cap it). Reads get their turn between transactions.
   * A drain still running when the next tick comes makes that tick do nothing.
   */
  private async drainQueue(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while ((await this.flushQueue()) > 0);
    } finally {
      this.draining = false;
    }
  }

  /**
   * Moves one transaction's worth of scans from the shared Redis queue to Postgres; returns how
   * many queue entries it took (0: none there, or another instance holds the lock). Only the store and the release of its pending counts exclude
   * reads (the gate), not the lock and the queue read around them.
   */
  private async flushQueue(): Promise<number> {
    const client = this.redis.background;
    if (!client || !this.redis.available) return 0;
    const token = `${process.pid}-${Math.random()}`;
    try {
      if ((await client.set(FLUSH_LOCK_KEY, token, 'PX', 30_000, 'NX')) !== 'OK') return 0;
      try {
        const taken = await this.takeStaged(client);
        if (!taken) return 0;
        const stored = await this.gate.write(async () => {
          const { stored: rows, released } = taken.form === 'batches' ? await this.storeStaged(taken.batches) : await this.storeLegacy(taken.json);
          const release = released.flatMap(({ codeId, scans }) => (scans > 0 ? [codeId, scans] : []));
          await client.multi().ltrim(taken.queue, taken.entries, -1).eval(RELEASE_PENDING, 1, PENDING_KEY, ...release).exec();
          return rows;
        });
        this.metrics.scansFlushed.inc(stored);
        return taken.entries;
      } finally {
        if ((await client.get(FLUSH_LOCK_KEY)) === token) await client.del(FLUSH_LOCK_KEY);
      }
    } catch (error) {
      this.logger.warn(`Scan queue not flushed this time: ${(error as Error).message}`);
      return 0;
    }
  }

  /** Stores staged batches; every batch taken releases its pending counts, whether stored now or before (a replay). */
  private async storeStaged(batches: ScanBatch[]): Promise<StoreOutcome> {
    return { stored: await this.store.storeBatches(batches), released: [...sumByCode(batches).values()] };
  }

  private async storeLegacy(json: string | Buffer): Promise<StoreOutcome> {
    const counts = await this.store.storeJsonBatch(json);
    const unreadable = counts.find(({ codeId }) => codeId === null);
    if (unreadable) this.logger.error(`Scan queue held ${unreadable.rows} entries without a code id (unknown format); they are dropped`);
    const released = counts.flatMap(({ codeId, scans, rows }) => (codeId === null ? [] : [{ codeId, scans, rows }]));
    return { stored: counts.reduce((sum, { rows }) => sum + rows, 0), released };
  }

  /**
   * The next transaction's worth of staged scans, with the queue and the number of its entries it
   * came from: from a legacy queue, one JSON array; from the current queue, several batches up to
   * about MAX_STORE_BYTES. Staged entries are read as Buffers and their rows go to Postgres as
   * they are; an entry that cannot be read is dropped (logged).
   */
  private async takeStaged(client: NonNullable<RedisConnection['background']>): Promise<StagedScans | null> {
    // One round trip: the legacy queues (empty once older instances are gone) and the next entries.
    const pipeline = client.pipeline();
    for (const legacy of LEGACY_QUEUES) pipeline.lrange(legacy.key, 0, legacy.form === 'array' ? 0 : BATCH_SIZE - 1);
    const replies = (await pipeline.lrangeBuffer(QUEUE_KEY, 0, MAX_ENTRIES_PER_STORE - 1).exec()) ?? [];
    for (const [error] of replies) if (error) throw error;
    for (const [index, legacy] of LEGACY_QUEUES.entries()) {
      const raw = replies[index][1] as string[];
      if (raw.length === 0) continue;
      const json =
        legacy.form === 'recorded' ? this.legacyWriter.toJsonArray(raw.map((line) => JSON.parse(line) as ScanEvent)) : legacy.form === 'stored' ? `[${raw.join(',')}]` : raw[0];
      return { form: 'json', queue: legacy.key, entries: raw.length, json };
    }
    const staged = replies[LEGACY_QUEUES.length][1] as Buffer[];
    if (staged.length === 0) return null;
    let entries = 0;
    let bytes = 0;
    const batches: ScanBatch[] = [];
    while (entries < staged.length && (entries === 0 || bytes + staged[entries].length <= MAX_STORE_BYTES)) {
      bytes += staged[entries].length;
      try {
        batches.push(decodeStagedBatch(staged[entries]));
      } catch (error) {
        this.logger.error(`Scan queue held an entry it cannot read (${(error as Error).message}); it is dropped`);
      }
      entries++;
    }
    return { form: 'batches', queue: QUEUE_KEY, entries, batches };
  }

  private async forgetOldBatchIds(): Promise<void> {
    try {
      await this.store.forgetBatchesStoredBefore(new Date(Date.now() - BATCH_ID_RETENTION_MS));
    } catch (error) {
      this.logger.warn(`Ids of stored scan batches not swept this time: ${(error as Error).message}`);
    }
  }

  /** Lowers the local pending counts by batches handed on (or dropped). */
  private forget(batches: ScanBatch[]): void {
    for (const batch of batches) for (const code of batch.codes) this.lowerPending(code.codeId, code.scans);
  }

  private lowerPending(codeId: string, n: number): void {
    const left = (this.localPending.get(codeId) ?? 0) - n;
    if (left > 0) this.localPending.set(codeId, left);
    else this.localPending.delete(codeId);
  }
}

interface StoreOutcome {
  /** rows stored now */
  stored: number;
  /** per code, the non-bot scans leaving the pending counts */
  released: CodeScans[];
}

type StagedScans =
  | { form: 'json'; queue: string; entries: number; json: string | Buffer }
  | { form: 'batches'; queue: string; entries: number; batches: ScanBatch[] };

/** Batches grouped into transactions of about MAX_STORE_BYTES of rows each. */
function inStoreGroups(batches: ScanBatch[]): ScanBatch[][] {
  const groups: ScanBatch[][] = [];
  let bytes = Infinity;
  for (const batch of batches) {
    if (bytes + batch.rows.length > MAX_STORE_BYTES) {
      groups.push([]);
      bytes = 0;
    }
    groups[groups.length - 1].push(batch);
    bytes += batch.rows.length;
  }
  return groups;
}
