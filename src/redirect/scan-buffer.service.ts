import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ReadWriteGate } from '../common/concurrency/read-write-gate';
import { isRefusedData } from '../infra/database/sql-session';
import { MetricsService } from '../infra/observability/metrics.service';
import { RedisConnection } from '../infra/redis/redis.module';
import { CodeScans, decodeStagedBatch, encodeStagedBatch, rowsMatchHeader, rowsOf, ScanBatch, ScanBatchWriter, sumByCode } from './scan-batch';
import { ScanEvent, storedScansJson } from './scan-event';
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
const FLUSH_LOCK_MS = 30_000;
/**
 * Batches Postgres refuses as data (say, a replay after their id was forgotten) or whose rows do
 * not match their header: set aside here by batch id (setting one aside twice is harmless), and
 * logged, so the queue moves on.
 */
const UNSTORABLE_KEY = 'scans:unstorable';
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
/**
 * After a store: removes the entries taken from the queue and lowers their pending counts (fields
 * that reach zero go: the hash would otherwise keep every code ever scanned), only while the
 * flusher still holds the lock. Had it expired and another flusher taken the same entries, a trim
 * by count would remove entries nobody stored. KEYS: queue, pending hash, lock; ARGV: token,
 * entries taken, then code id and scans pairs.
 */
const SETTLE_TAKEN = `
if redis.call('GET', KEYS[3]) ~= ARGV[1] then return 0 end
redis.call('LTRIM', KEYS[1], tonumber(ARGV[2]), -1)
for i = 3, #ARGV, 2 do
  if redis.call('HINCRBY', KEYS[2], ARGV[i], -tonumber(ARGV[i + 1])) <= 0 then redis.call('HDEL', KEYS[2], ARGV[i]) end
end
return 1`;
const RELEASE_LOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
/** Memory bound for scans that could be handed nowhere (Redis and Postgres both down): this many recorded, and as many written. */
const MAX_LOCAL_EVENTS = 200_000;
/** After Postgres failed a hand-on, batches go straight to Redis (when there) this long before Postgres is tried again. */
const DIRECT_STORE_BACKOFF_MS = 5000;
/** Ids of stored batches are forgotten after a day, checked this often. */
const BATCH_ID_RETENTION_MS = 86_400_000;
const BATCH_ID_SWEEP_INTERVAL_MS = 3_600_000;

/**
 * Scan recording without a row lock per scan (design §6). A redirect appends its event to an
 * in-process list and returns. Every 100 ms the list is written as batches (ScanBatch) and stored
 * in Postgres, several batches a transaction. Batches Postgres does not take are staged in a Redis
 * list shared by all instances, with per-code pending counts, and one instance at a time (lock)
 * moves them to Postgres later; without Redis they are kept in memory, as written, and tried
 * again. Storing is idempotent (batch ids), so a batch stored twice (re-read after a crash, or
 * staged after a commit whose answer was lost) counts once; in the latter case `scans` shows it
 * twice until the staged copy is drained. `readWithPending` lets the API add scans not yet in
 * Postgres, so every completed redirect shows in `scans`. Shutdown hands everything on.
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
  /** The hand-on in flight: hand-ons never overlap, and a slow Postgres makes the timer skip ticks rather than queue them. */
  private handingOn: Promise<void> | null = null;
  /** Until then, batches go to Redis without trying Postgres (it failed a moment ago). */
  private storeDirectlyAfter = 0;
  /**
   * Hand-ons and flushes (writers) exclude reads of stored and pending counts, so a read never
   * falls between a batch landing in its next store and its pending count being released (which
   * would count it twice, or not at all). Reads run side by side. Instances share no such gate:
   * across instances that window (milliseconds) remains.
   */
  private readonly gate = new ReadWriteGate();
  private readonly writer = new ScanBatchWriter();

  constructor(
    private readonly store: ScanStoreRepository,
    private readonly redis: RedisConnection,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    const handOnIfAny = () => {
      if (!this.handingOn && (this.local.length > 0 || this.unstored.length > 0)) void this.handOnOnce();
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
    const deadline = Date.now() + maxWaitMs;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxWaitMs)));
    await Promise.race([this.handOnOnce(), timedOut]).finally(() => clearTimeout(timer));
    const client = this.redis.background;
    if (!client) return;
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

  /** Runs one hand-on once any in flight has finished. */
  private async handOnOnce(): Promise<void> {
    while (this.handingOn) await this.handingOn;
    const run = this.handOn()
      .catch((error: Error) => this.logger.warn(`Scan hand-on failed: ${error.message}`))
      .finally(() => {
        this.handingOn = null;
      });
    this.handingOn = run;
    await run;
  }

  /**
   * Writes local events as batches and stores them, with any kept from before, in Postgres; what
   * Postgres does not take is staged in Redis (when there) for the drain, else kept for the next
   * hand-on. Each store and each staging excludes reads (the gate) until its pending counts moved.
   */
  private async handOn(): Promise<void> {
    this.writeLocalEvents();
    if (this.unstored.length === 0) return;
    const batches = this.unstored;
    this.unstored = [];
    let storeError: Error | undefined;
    if (!this.stagingClient() || Date.now() >= this.storeDirectlyAfter) {
      try {
        for (const group of inStoreGroups(batches)) {
          await this.gate.write(async () => {
            const { stored, refused } = await this.storeRefusingBadBatches(group);
            if (refused.length > 0) await this.setAside(refused);
            this.metrics.scansFlushed.inc(stored);
            this.forget(group);
          });
          batches.splice(0, group.length);
        }
        return;
      } catch (error) {
        storeError = error as Error;
        this.storeDirectlyAfter = Date.now() + DIRECT_STORE_BACKOFF_MS;
      }
    }
    const client = this.stagingClient();
    if (client) {
      try {
        await this.gate.write(async () => {
          await this.stageInRedis(client, batches);
          this.forget(batches);
        });
        return;
      } catch (error) {
        this.redis.markDown(error as Error);
      }
    }
    this.logger.warn(`Scans kept in memory, will retry: ${storeError?.message ?? 'Redis is unavailable'}`);
    this.keep(batches);
  }

  private writeLocalEvents(): void {
    const events = this.local;
    this.local = [];
    for (let start = 0; start < events.length; start += BATCH_SIZE) {
      const chunk = events.slice(start, start + BATCH_SIZE);
      try {
        this.unstored.push(this.writer.write(chunk));
      } catch (error) {
        this.logger.error(`${chunk.length} scans dropped: they could not be written (${(error as Error).message})`);
        for (const event of chunk) if (!event.isBot) this.lowerPending(event.codeId, 1);
      }
    }
  }

  /** Keeps batches for the next hand-on, within the memory bound (the oldest go first). */
  private keep(batches: ScanBatch[]): void {
    this.unstored = batches.concat(this.unstored);
    let rows = this.unstored.reduce((sum, batch) => sum + rowsOf(batch), 0);
    while (rows > MAX_LOCAL_EVENTS && this.unstored.length > 1) {
      const dropped = this.unstored.shift() as ScanBatch;
      rows -= rowsOf(dropped);
      this.logger.error('Scan buffer full: Redis and the database are unreachable; dropping the oldest batch of scans');
      this.forget([dropped]);
    }
  }

  private async queuedEntries(client: StagingClient): Promise<number> {
    const lengths = await Promise.all([QUEUE_KEY, ...LEGACY_QUEUES.map((queue) => queue.key)].map((key) => client.llen(key)));
    return lengths.reduce((sum, n) => sum + n, 0);
  }

  /** The Redis connection for the shared queue, or null while Redis is not configured or down. */
  private stagingClient(): StagingClient | null {
    return this.redis.available ? this.redis.background : null;
  }

  private async stageInRedis(client: StagingClient, batches: ScanBatch[]): Promise<void> {
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
   * many queue entries it took (0: none there, or another instance holds the lock). Only the store
   * and the release of its pending counts exclude reads (the gate), not the lock and the queue read
   * around them.
   */
  private async flushQueue(): Promise<number> {
    const client = this.stagingClient();
    if (!client) return 0;
    const token = `${process.pid}-${Math.random()}`;
    try {
      if ((await client.set(FLUSH_LOCK_KEY, token, 'PX', FLUSH_LOCK_MS, 'NX')) !== 'OK') return 0;
      try {
        const taken = await this.takeStaged(client);
        if (!taken) return 0;
        const stored = await this.gate.write(async () => {
          const { stored: rows, released } = taken.form === 'batches' ? await this.storeStaged(taken.batches) : await this.storeLegacy(taken.json);
          const release = released.flatMap(({ codeId, scans }) => (scans > 0 ? [codeId, scans] : []));
          const settled = await client.eval(SETTLE_TAKEN, 3, taken.queue, PENDING_KEY, FLUSH_LOCK_KEY, token, taken.entries, ...release);
          // Harmless (the next flusher finds the batches claimed and settles them) but a sign that stores outlast the lock.
          if (settled !== 1) this.logger.warn(`Scan flush lock expired during a store of ${taken.entries} staged entries; they are settled by the next flush`);
          return rows;
        });
        this.metrics.scansFlushed.inc(stored);
        return taken.entries;
      } finally {
        await client.eval(RELEASE_LOCK, 1, FLUSH_LOCK_KEY, token);
      }
    } catch (error) {
      this.logger.warn(`Scan queue not flushed this time: ${(error as Error).message}`);
      return 0;
    }
  }

  /**
   * Stores staged batches; every batch taken releases its pending counts, whether stored now or
   * before (a replay) or set aside.
   */
  private async storeStaged(batches: ScanBatch[]): Promise<StoreOutcome> {
    const intact: ScanBatch[] = [];
    const damaged: ScanBatch[] = [];
    for (const batch of batches) (rowsMatchHeader(batch) ? intact : damaged).push(batch);
    const { stored, refused } = await this.storeRefusingBadBatches(intact);
    if (damaged.length + refused.length > 0) await this.setAside([...damaged, ...refused]);
    return { stored, released: [...sumByCode(batches).values()] };
  }

  /**
   * Stores batches in one transaction; when Postgres refuses the data, stores them one by one and
   * returns those it still refuses, so that one bad batch holds up no other.
   */
  private async storeRefusingBadBatches(batches: ScanBatch[]): Promise<{ stored: number; refused: ScanBatch[] }> {
    try {
      return { stored: await this.store.storeBatches(batches), refused: [] };
    } catch (error) {
      if (!isRefusedData(error)) throw error;
      if (batches.length === 1) return { stored: 0, refused: batches };
    }
    let stored = 0;
    const refused: ScanBatch[] = [];
    for (const batch of batches) {
      try {
        stored += await this.store.storeBatches([batch]);
      } catch (error) {
        if (!isRefusedData(error)) throw error;
        refused.push(batch);
      }
    }
    return { stored, refused };
  }

  /** Keeps batches that cannot be stored out of the way, in Redis when there, else only in the log. */
  private async setAside(batches: ScanBatch[]): Promise<void> {
    const client = this.stagingClient();
    for (const batch of batches) {
      this.logger.error(`Scan batch ${batch.id} (${rowsOf(batch)} scans) cannot be stored: ${client ? `set aside in ${UNSTORABLE_KEY}` : 'dropped'}`);
    }
    if (client) await client.hset(UNSTORABLE_KEY, ...batches.flatMap((batch) => [batch.id, encodeStagedBatch(batch)]));
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
  private async takeStaged(client: StagingClient): Promise<StagedScans | null> {
    // One round trip: the legacy queues (empty once older instances are gone) and the next entries.
    const pipeline = client.pipeline();
    for (const legacy of LEGACY_QUEUES) pipeline.lrange(legacy.key, 0, legacy.form === 'array' ? 0 : BATCH_SIZE - 1);
    const replies = (await pipeline.lrangeBuffer(QUEUE_KEY, 0, MAX_ENTRIES_PER_STORE - 1).exec()) ?? [];
    for (const [error] of replies) if (error) throw error;
    for (const [index, legacy] of LEGACY_QUEUES.entries()) {
      const raw = replies[index][1] as string[];
      if (raw.length === 0) continue;
      const json =
        legacy.form === 'recorded' ? storedScansJson(raw.map((line) => JSON.parse(line) as ScanEvent)) : legacy.form === 'stored' ? `[${raw.join(',')}]` : raw[0];
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

type StagingClient = NonNullable<RedisConnection['background']>;

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
