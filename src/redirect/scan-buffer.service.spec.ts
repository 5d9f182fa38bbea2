import { randomUUID } from 'node:crypto';
import { MetricsService } from '../infra/observability/metrics.service';
import type { RedisConnection } from '../infra/redis/redis.module';
import type { ScanBatch } from './scan-batch';
import type { ScanEvent } from './scan-event';
import { ScanBuffer } from './scan-buffer.service';
import type { ScanStoreRepository } from './scan-store.repository';

const CODE = 'code-1';
const scanOf = (codeId = CODE): ScanEvent => ({ eventId: randomUUID(), codeId, at: Date.now(), userAgent: null, referrer: null, visitorHash: 'v', isBot: false });
const tick = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A store whose write commits at once and then stalls before returning, as a database write does
 * between its commit and the buffer releasing the batch's pending count: the window a read must
 * never fall into.
 */
function stallingStore() {
  let stored = 0;
  let stalls: Array<() => void> = [];
  const store = {
    storeBatches: async (batches: ScanBatch[]) => {
      const rows = batches.reduce((sum, batch) => sum + batch.codes.reduce((n, code) => n + code.rows, 0), 0);
      stored += rows;
      await new Promise<void>((resolve) => stalls.push(resolve));
      return rows;
    },
  };
  return {
    store: store as unknown as ScanStoreRepository,
    stored: () => stored,
    finishWrites: () => {
      for (const resume of stalls) resume();
      stalls = [];
    },
  };
}

const noRedis = { client: null, background: null, available: false } as unknown as RedisConnection;

describe('ScanBuffer without Redis', () => {
  it('a read never sees a flushed batch both stored and pending, and reads run side by side', async () => {
    const db = stallingStore();
    const buffer = new ScanBuffer(db.store, noRedis, new MetricsService());
    for (let i = 0; i < 5; i++) buffer.record(scanOf());
    const read = () => buffer.readWithPending(async () => db.stored(), () => [CODE]);
    expect((await read()).pending.get(CODE)).toBe(5);

    const flushing = buffer.flush();
    await tick();
    expect(db.stored()).toBe(5); // committed, pending count not yet released
    const during = read();
    await tick();
    db.finishWrites();
    await flushing;
    const { result: stored, pending } = await during;
    expect(stored + (pending.get(CODE) ?? 0)).toBe(5);

    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 3 }, () =>
        buffer.readWithPending(async () => {
          most = Math.max(most, ++inside);
          await tick();
          inside--;
          return db.stored();
        }, () => [CODE]),
      ),
    );
    expect(most).toBe(3);
  });

  it('counts bots apart: they are stored but never pending in scans', async () => {
    const db = stallingStore();
    const buffer = new ScanBuffer(db.store, noRedis, new MetricsService());
    buffer.record(scanOf());
    buffer.record({ ...scanOf(), isBot: true });
    expect((await buffer.readWithPending(async () => 0, () => [CODE])).pending.get(CODE)).toBe(1);
    const flushing = buffer.flush();
    await tick();
    db.finishWrites();
    await flushing;
    expect(db.stored()).toBe(2);
    expect((await buffer.readWithPending(async () => 0, () => [CODE])).pending.get(CODE)).toBe(0);
  });
});

describe('ScanBuffer when the database fails', () => {
  /** A store that fails until told otherwise, and remembers the batch ids it was given. */
  function failingStore() {
    let failing = true;
    const attempts: string[][] = [];
    const store = {
      storeBatches: async (batches: ScanBatch[]) => {
        attempts.push(batches.map((batch) => batch.id));
        if (failing) throw new Error('database unreachable');
        return batches.reduce((sum, batch) => sum + batch.codes.reduce((n, code) => n + code.rows, 0), 0);
      },
    };
    return { store: store as unknown as ScanStoreRepository, attempts, recover: () => (failing = false) };
  }

  it('keeps a batch it could not store, as written, and stores it (same id) once the database is back; its scans stay pending meanwhile', async () => {
    const db = failingStore();
    const buffer = new ScanBuffer(db.store, noRedis, new MetricsService());
    const pending = async () => (await buffer.readWithPending(async () => 0, () => [CODE])).pending.get(CODE);
    for (let i = 0; i < 3; i++) buffer.record(scanOf());
    await buffer.flush();
    expect(await pending()).toBe(3);
    buffer.record(scanOf());
    await buffer.flush();
    expect(await pending()).toBe(4);
    db.recover();
    await buffer.flush();
    expect(await pending()).toBe(0);
    const [first, second, third] = db.attempts;
    expect(first).toHaveLength(1);
    expect(second).toEqual([first[0], expect.any(String)]); // the kept batch again, and the new one
    expect(third).toEqual(second);
  });
});
