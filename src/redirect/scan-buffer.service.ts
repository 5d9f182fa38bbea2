import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ReadWriteGate } from '../common/concurrency/read-write-gate';
import { MetricsService } from '../infra/observability/metrics.service';
import { RedisConnection } from '../infra/redis/redis.module';
import { ScanEvent, StoredScanWriter } from './scan-event';
import { ScanStoreRepository } from './scan-store.repository';

/** One entry per staged batch: a JSON array of scans in their stored row form (StoredScanWriter). */
const QUEUE_KEY = 'scans:queue:v3';
/**
 * Queues of earlier versions, drained first (instances of both versions run side by side during a
 * deploy): one scan per entry, in its recorded form (ScanEvent) or its stored row form.
 */
const LEGACY_QUEUES = [
  { key: 'scans:queue', form: 'recorded' },
  { key: 'scans:queue:v2', form: 'stored' },
] as const;
const PENDING_KEY = 'scans:pending';
const FLUSH_LOCK_KEY = 'scans:flush-lock';
/** Local events are handed on this often: the redirect never waits for Redis or Postgres. */
const STAGE_INTERVAL_MS = 50;
const FLUSH_INTERVAL_MS = 1000;
/** Scans per statement (and per staged entry at most). */
const BATCH_SIZE = 1000;
/** A flush merges staged entries up to about a batch's worth of JSON (~400 bytes a scan). */
const MAX_STORE_BYTES = 512 * 1024;
/** Staged entries read at once when merging small ones. */
const MAX_ENTRIES_PER_STORE = 20;
/** Lowers pending counts after a flush and drops fields that reach zero (the hash would otherwise keep every code ever scanned). */
const RELEASE_PENDING = `
for i = 1, #ARGV, 2 do
  if redis.call('HINCRBY', KEYS[1], ARGV[i], -tonumber(ARGV[i + 1])) <= 0 then redis.call('HDEL', KEYS[1], ARGV[i]) end
end
return 0`;
/** Memory bound for events that could be handed nowhere (Redis and Postgres both down). */
const MAX_LOCAL_EVENTS = 200_000;

/**
 * Scan recording without a row lock per scan (design §6). A redirect appends its event to an
 * in-process batch and returns. With Redis, batches are staged every 50 ms into a Redis list
 * shared by all instances, one entry per batch (with per-code pending counts), and one instance at
 * a time (lock) moves them to Postgres, about 1000 scans a statement. Without Redis, the in-process batch goes straight to
 * Postgres. Storing is idempotent (event ids), so a batch re-read after a crash is not counted
 * twice. `readWithPending` lets the API add scans not yet in Postgres, so every completed redirect
 * shows in `scans`. Shutdown hands everything on.
 */
@Injectable()
export class ScanBuffer implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('ScanBuffer');
  private local: ScanEvent[] = [];
  /** Non-bot events per code held in this process (local batch and batches being handed on). */
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
  private readonly writer = new StoredScanWriter();

  constructor(
    private readonly store: ScanStoreRepository,
    private readonly redis: RedisConnection,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    const handOnIfAny = () => {
      if (this.local.length > 0) void this.exclusively(() => this.handOn());
    };
    this.timers.push(setInterval(handOnIfAny, this.redis.client ? STAGE_INTERVAL_MS : FLUSH_INTERVAL_MS));
    if (this.redis.client) this.timers.push(setInterval(() => void this.drainQueue(), FLUSH_INTERVAL_MS));
    for (const timer of this.timers) timer.unref();
  }

  record(event: ScanEvent): void {
    if (this.local.length >= MAX_LOCAL_EVENTS) {
      this.logger.error('Scan buffer full: Redis and the database are unreachable; dropping the oldest scan');
      this.forget([this.local.shift() as ScanEvent]);
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

  private async handOn(): Promise<void> {
    if (this.local.length === 0) return;
    const batch = this.local;
    this.local = [];
    try {
      if (this.redis.client && this.redis.available) await this.stageInRedis(batch);
      else await this.storeInBatches(batch);
      this.forget(batch);
    } catch (error) {
      if (this.redis.client) this.redis.markDown(error as Error);
      try {
        // Redis refused the batch: Postgres directly, so scans keep flowing while Redis is down.
        await this.storeInBatches(batch);
        this.forget(batch);
      } catch (storeError) {
        this.logger.warn(`Scans kept in memory, will retry: ${(storeError as Error).message}`);
        this.local = batch.concat(this.local);
      }
    }
  }

  private async queuedEntries(client: NonNullable<RedisConnection['background']>): Promise<number> {
    const lengths = await Promise.all([QUEUE_KEY, ...LEGACY_QUEUES.map((queue) => queue.key)].map((key) => client.llen(key)));
    return lengths.reduce((sum, n) => sum + n, 0);
  }

  private async stageInRedis(batch: ScanEvent[]): Promise<void> {
    const client = this.redis.background!;
    const entries: string[] = [];
    for (let start = 0; start < batch.length; start += BATCH_SIZE) entries.push(this.writer.toJsonArray(batch.slice(start, start + BATCH_SIZE)));
    const multi = client.multi().rpush(QUEUE_KEY, ...entries);
    for (const [codeId, n] of countByCode(batch)) multi.hincrby(PENDING_KEY, codeId, n);
    const results = await multi.exec();
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw failed?.[0] ?? new Error('Redis transaction aborted');
  }

  private async storeInBatches(batch: ScanEvent[]): Promise<void> {
    for (let start = 0; start < batch.length; start += BATCH_SIZE) {
      await this.store.store(this.writer.toJsonArray(batch.slice(start, start + BATCH_SIZE)));
      this.metrics.scansFlushed.inc(Math.min(BATCH_SIZE, batch.length - start));
    }
  }

  /**
   * Moves staged scans from the shared queue while there are any, so the store keeps up with any
   * scan rate (one statement per tick would cap it). Reads get their turn between statements. A
   * drain still running when the next tick comes makes that tick do nothing.
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
   * Moves one statement's worth of scans from the shared Redis queue to Postgres; returns how many
   * it moved. Only the store and the release of its pending counts exclude reads (the gate), not
   * the lock and the queue read around them.
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
        const rows = await this.gate.write(async () => {
          const counts = await this.store.store(taken.json);
          const unreadable = counts.find(({ codeId }) => codeId === null);
          if (unreadable) this.logger.error(`Scan queue held ${unreadable.rows} entries without a code id (unknown format); they are dropped`);
          const released = counts.flatMap(({ codeId, scans: n }) => (codeId !== null && n > 0 ? [codeId, n] : []));
          await client.multi().ltrim(taken.queue, taken.entries, -1).eval(RELEASE_PENDING, 1, PENDING_KEY, ...released).exec();
          return counts.reduce((sum, { rows: n }) => sum + n, 0);
        });
        this.metrics.scansFlushed.inc(rows);
        return rows;
      } finally {
        if ((await client.get(FLUSH_LOCK_KEY)) === token) await client.del(FLUSH_LOCK_KEY);
      }
    } catch (error) {
      this.logger.warn(`Scan queue not flushed this time: ${(error as Error).message}`);
      return 0;
    }
  }

  /**
   * The next statement's worth of staged scans as one JSON array, with the queue and the number of
   * its entries it came from. Staged entries are read as Buffers and go to Postgres as they are
   * (no decoding of ~400 KB of JSON a batch).
   */
  private async takeStaged(client: NonNullable<RedisConnection['background']>): Promise<{ queue: string; entries: number; json: string | Buffer } | null> {
    // One round trip: the legacy queues (empty once older instances are gone) and the next entry.
    const pipeline = client.pipeline();
    for (const legacy of LEGACY_QUEUES) pipeline.lrange(legacy.key, 0, BATCH_SIZE - 1);
    const replies = (await pipeline.lrangeBuffer(QUEUE_KEY, 0, 0).exec()) ?? [];
    for (const [error] of replies) if (error) throw error;
    for (const [index, legacy] of LEGACY_QUEUES.entries()) {
      const raw = replies[index][1] as string[];
      if (raw.length === 0) continue;
      const json = legacy.form === 'recorded' ? this.writer.toJsonArray(raw.map((line) => JSON.parse(line) as ScanEvent)) : `[${raw.join(',')}]`;
      return { queue: legacy.key, entries: raw.length, json };
    }
    const staged = replies[LEGACY_QUEUES.length][1] as Buffer[];
    if (staged.length === 0) return null;
    // Small entries (quiet times) are merged into one statement, up to about a batch's worth. A
    // full entry (busy times) goes alone: reading further entries would only be thrown away.
    if (staged[0].length < MAX_STORE_BYTES / 2) staged.push(...(await client.lrangeBuffer(QUEUE_KEY, 1, MAX_ENTRIES_PER_STORE - 1)));
    let entries = 1;
    let bytes = staged[0].length;
    while (entries < staged.length && bytes + staged[entries].length <= MAX_STORE_BYTES) bytes += staged[entries++].length;
    return { queue: QUEUE_KEY, entries, json: joinJsonArrays(staged.slice(0, entries)) };
  }

  private forget(batch: ScanEvent[]): void {
    for (const [codeId, n] of countByCode(batch)) {
      const left = (this.localPending.get(codeId) ?? 0) - n;
      if (left > 0) this.localPending.set(codeId, left);
      else this.localPending.delete(codeId);
    }
  }
}

/** One JSON array of the items of several (each `[...]`, possibly empty), without decoding them; one array goes as it is (no copy). */
function joinJsonArrays(arrays: Buffer[]): Buffer {
  if (arrays.length === 1) return arrays[0];
  const parts: Buffer[] = [Buffer.from('[')];
  for (const array of arrays) {
    const items = array.subarray(1, array.length - 1);
    if (items.length === 0) continue;
    if (parts.length > 1) parts.push(Buffer.from(','));
    parts.push(items);
  }
  parts.push(Buffer.from(']'));
  return Buffer.concat(parts);
}

function countByCode(batch: ScanEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of batch) if (!event.isBot) counts.set(event.codeId, (counts.get(event.codeId) ?? 0) + 1);
  return counts;
}
