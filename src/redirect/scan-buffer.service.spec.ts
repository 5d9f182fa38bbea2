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

describe('ScanBuffer hand-ons', () => {
  it('never overlap: while a store is slow, the timer skips its ticks instead of queueing hand-ons', async () => {
    jest.useFakeTimers();
    try {
      const db = stallingStore();
      let calls = 0;
      const store = {
        storeBatches: (batches: ScanBatch[]) => {
          calls++;
          return (db.store as unknown as { storeBatches: (b: ScanBatch[]) => Promise<number> }).storeBatches(batches);
        },
      } as unknown as ScanStoreRepository;
      const buffer = new ScanBuffer(store, noRedis, new MetricsService());
      buffer.onModuleInit();
      buffer.record(scanOf());
      await jest.advanceTimersByTimeAsync(100);
      expect(calls).toBe(1); // stalled
      for (let i = 0; i < 20; i++) {
        buffer.record(scanOf());
        await jest.advanceTimersByTimeAsync(100);
      }
      expect(calls).toBe(1);
      db.finishWrites();
      await jest.advanceTimersByTimeAsync(100);
      expect(calls).toBe(2); // the next tick stores the 20 recorded meanwhile, in one go
      db.finishWrites();
      await buffer.beforeApplicationShutdown();
      expect(db.stored()).toBe(21);
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps only the batches of a hand-on that the database did not take, and their scans pending', async () => {
    // Long referrers: 5,000-scan batches of about 2.5 MB, one per transaction (up to about 1 MB of rows each).
    const referrer = `https://example.com/${'x'.repeat(480)}`;
    let calls = 0;
    const given: number[] = [];
    const store = {
      storeBatches: async (batches: ScanBatch[]) => {
        if (++calls === 2) throw new Error('database unreachable');
        const rows = batches.reduce((sum, batch) => sum + batch.codes.reduce((n, code) => n + code.rows, 0), 0);
        given.push(rows);
        return rows;
      },
    } as unknown as ScanStoreRepository;
    const buffer = new ScanBuffer(store, noRedis, new MetricsService());
    const total = 12_000;
    for (let i = 0; i < total; i++) buffer.record({ ...scanOf(), referrer });
    const pending = async () => (await buffer.readWithPending(async () => 0, () => [CODE])).pending.get(CODE);

    await buffer.flush();
    expect(given).toHaveLength(1);
    expect(await pending()).toBe(total - given[0]);
    await buffer.flush();
    expect(given.reduce((sum, n) => sum + n, 0)).toBe(total);
    expect(await pending()).toBe(0);
  });

  it('flush() waits for a hand-on in flight, then hands on what came after it; a stalled one delays it by at most maxWaitMs', async () => {
    jest.useFakeTimers();
    try {
      const db = stallingStore();
      const buffer = new ScanBuffer(db.store, noRedis, new MetricsService());
      buffer.onModuleInit();
      buffer.record(scanOf());
      await jest.advanceTimersByTimeAsync(100); // the timer's hand-on: stalled in its store
      buffer.record(scanOf());
      let flushed = false;
      const flushing = buffer.flush(60_000).then(() => (flushed = true));
      await jest.advanceTimersByTimeAsync(0);
      expect(flushed).toBe(false);
      db.finishWrites(); // the first hand-on ends; flush's own one stores the second scan
      await jest.advanceTimersByTimeAsync(0);
      db.finishWrites();
      await flushing;
      expect(db.stored()).toBe(2);

      buffer.record(scanOf());
      await jest.advanceTimersByTimeAsync(100); // stalls again, for good
      const bounded = buffer.flush(500).then(() => (flushed = true));
      flushed = false;
      await jest.advanceTimersByTimeAsync(499);
      expect(flushed).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      await bounded;
      expect(flushed).toBe(true);
      db.finishWrites();
    } finally {
      jest.useRealTimers();
    }
  });
});
