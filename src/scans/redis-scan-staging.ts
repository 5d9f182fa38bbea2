import type { Logger } from '@nestjs/common';
import type { QrCodeId } from '../common/ids/resource-ids';
import type { RedisConnection } from '../infra/redis/redis.module';
import { decodeStagedBatch, encodeStagedBatch, MAX_STORE_BYTES, rowsMatchHeader, type ScanBatch, sumByCode } from './scan-batch';
import type { ScanStaging, StagedBatchStore } from './scan-staging';

/** One entry per staged batch (encodeStagedBatch). */
const QUEUE_KEY = 'scans:queue';
/** Non-bot scans per code of the queued batches: what every instance adds to `scans`. */
const PENDING_KEY = 'scans:pending';
const DRAIN_LOCK_KEY = 'scans:drain-lock';
const DRAIN_LOCK_MS = 30_000;
/** Batches that can never be stored, by id, kept a week for an operator. */
const UNSTORABLE_KEY = 'scans:unstorable';
const UNSTORABLE_TTL_SECONDS = 7 * 86_400;
/** Entries read for one store: at most this many, and about MAX_STORE_BYTES of rows. */
const MAX_ENTRIES_PER_STORE = 20;
/**
 * After a store: removes the entries taken from the queue and lowers their pending counts (fields
 * that reach zero go: the hash would otherwise keep every code ever scanned), only while the
 * drainer still holds the lock. Had it expired and another drainer taken the same entries, a trim
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

/**
 * Staging in Redis: a list of batches and a hash of their pending counts, shared by every
 * instance, drained by one instance at a time (a lock with a token). Used while Redis is
 * configured and up.
 */
export class RedisScanStaging implements ScanStaging {
  readonly name = 'redis';

  constructor(
    private readonly redis: RedisConnection,
    private readonly logger: Logger,
  ) {}

  available(): boolean {
    return this.redis.available && this.redis.background !== null;
  }

  async stage(batches: ScanBatch[]): Promise<void> {
    const client = this.client();
    const multi = client.multi().rpush(QUEUE_KEY, ...batches.map(encodeStagedBatch));
    for (const code of sumByCode(batches).values()) if (code.scans > 0) multi.hincrby(PENDING_KEY, code.codeId, code.scans);
    const results = await multi.exec();
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw failed?.[0] ?? new Error('Redis transaction aborted');
  }

  async pendingCounts(codeIds: QrCodeId[]): Promise<Map<QrCodeId, number>> {
    const counts = new Map<QrCodeId, number>();
    // The request path's connection: it fails at once while Redis is down rather than waiting.
    if (!this.redis.client || !this.redis.available || codeIds.length === 0) return counts;
    try {
      const shared = await this.redis.client.hmget(PENDING_KEY, ...codeIds);
      codeIds.forEach((id, index) => {
        const n = Number(shared[index] ?? 0);
        if (n > 0) counts.set(id, n);
      });
    } catch (error) {
      this.redis.markDown(error as Error);
    }
    return counts;
  }

  async drain(store: StagedBatchStore, deadline = Infinity): Promise<number> {
    let moved = 0;
    while (this.available() && Date.now() < deadline) {
      const taken = await this.drainOnce(store);
      if (taken === 0) break;
      moved += taken;
    }
    return moved;
  }

  async setAside(batches: ScanBatch[]): Promise<void> {
    if (batches.length === 0) return;
    const client = this.client();
    await client
      .multi()
      .hset(UNSTORABLE_KEY, ...batches.flatMap((batch) => [batch.id, encodeStagedBatch(batch)]))
      .expire(UNSTORABLE_KEY, UNSTORABLE_TTL_SECONDS)
      .exec();
  }

  /** Whether any batch waits in the queue or a drain is under way (tests and shutdown wait for both to end). */
  async busy(): Promise<boolean> {
    const client = this.client();
    const [length, locked] = await Promise.all([client.llen(QUEUE_KEY), client.exists(DRAIN_LOCK_KEY)]);
    return length > 0 || locked > 0;
  }

  /**
   * Moves one transaction's worth of batches from the queue to `store`; returns how many entries
   * it took (0: none there, or another instance holds the lock). Every batch taken releases its
   * pending counts, whether stored now, before (a replay) or set aside.
   */
  private async drainOnce(store: StagedBatchStore): Promise<number> {
    const client = this.client();
    const token = `${process.pid}-${Math.random()}`;
    try {
      if ((await client.set(DRAIN_LOCK_KEY, token, 'PX', DRAIN_LOCK_MS, 'NX')) !== 'OK') return 0;
      try {
        const entries = await client.lrangeBuffer(QUEUE_KEY, 0, MAX_ENTRIES_PER_STORE - 1);
        if (entries.length === 0) return 0;
        const { taken, intact, damaged } = this.read(entries);
        const release = [...sumByCode([...intact, ...damaged]).values()].flatMap(({ codeId, scans }) => (scans > 0 ? [codeId, scans] : []));
        const { refused } = await store(intact, async () => {
          const settled = await client.eval(SETTLE_TAKEN, 3, QUEUE_KEY, PENDING_KEY, DRAIN_LOCK_KEY, token, taken, ...release);
          // Harmless (the next drainer finds the batches claimed and settles them) but a sign that stores outlast the lock.
          if (settled !== 1)
            this.logger.warn(`Scan drain lock expired during a store of ${taken} staged entries; they are settled by the next drain`);
        });
        if (damaged.length + refused.length > 0) {
          for (const batch of [...damaged, ...refused]) this.logger.error(`Scan batch ${batch.id} cannot be stored: set aside in ${UNSTORABLE_KEY}`);
          await this.setAside([...damaged, ...refused]);
        }
        return taken;
      } finally {
        await client.eval(RELEASE_LOCK, 1, DRAIN_LOCK_KEY, token);
      }
    } catch (error) {
      this.logger.warn(`Scan queue not drained this time: ${(error as Error).message}`);
      return 0;
    }
  }

  /**
   * Reads entries up to about MAX_STORE_BYTES; an entry whose header cannot be read is dropped
   * (logged), one whose rows do not match its header is set aside.
   */
  private read(entries: Buffer[]): { taken: number; intact: ScanBatch[]; damaged: ScanBatch[] } {
    const intact: ScanBatch[] = [];
    const damaged: ScanBatch[] = [];
    let taken = 0;
    let bytes = 0;
    while (taken < entries.length && (taken === 0 || bytes + entries[taken].length <= MAX_STORE_BYTES)) {
      bytes += entries[taken].length;
      try {
        const batch = decodeStagedBatch(entries[taken]);
        (rowsMatchHeader(batch) ? intact : damaged).push(batch);
      } catch (error) {
        this.logger.error(`Scan queue held an entry it cannot read (${(error as Error).message}); it is dropped`);
      }
      taken++;
    }
    return { taken, intact, damaged };
  }

  private client(): NonNullable<RedisConnection['background']> {
    const client = this.redis.background;
    if (!client) throw new Error('Redis is not configured');
    return client;
  }
}
