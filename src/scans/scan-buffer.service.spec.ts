import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QrCodeId } from '../common/ids/resource-ids';
import type { AppConfig } from '../config/app-config';
import type { TransactionOptions } from '../infra/database/sql-session';
import { MetricsService } from '../infra/observability/metrics.service';
import type { RedisConnection } from '../infra/redis/redis.module';
import { rowsOf, type ScanBatch } from './scan-batch';
import { ScanBuffer } from './scan-buffer.service';
import type { ScanEvent } from './scan-event';
import type { ScanStoreRepository } from './scan-store.repository';
import { TEST_VISITORS } from './__fixtures__/scan-events';

const CODE = '5f0c6d7e-0000-4000-8000-0000000000c0' as QrCodeId;
const scanOf = (overrides: Partial<ScanEvent> = {}): ScanEvent => ({
  codeId: CODE,
  at: Date.now(),
  userAgent: null,
  referrer: null,
  ip: '203.0.113.9',
  isBot: false,
  country: null,
  city: null,
  ...overrides,
});
const tick = () => new Promise((resolve) => setImmediate(resolve));
const noRedis = { client: null, background: null, available: false } as unknown as RedisConnection;

/**
 * A database that stores batches by id (a batch given twice is stored once), can be made to fail,
 * or to hang before its commit; its commit runs through the buffer's commit guard, as Postgres's does.
 */
class FakeStore {
  readonly ids = new Set<string>();
  scans = 0;
  rows = 0;
  failing = false;
  private hangs: Array<() => void> | null = null;
  calls = 0;

  hangCommits(): void {
    this.hangs = [];
  }

  releaseCommits(): void {
    const waiting = this.hangs ?? [];
    this.hangs = null;
    for (const resume of waiting) resume();
  }

  readonly repository = {
    storeBatches: async (batches: readonly ScanBatch[], options?: TransactionOptions) => {
      this.calls++;
      if (this.failing) throw new Error('database unreachable');
      const fresh = batches.filter((batch) => !this.ids.has(batch.id));
      const commit = async () => {
        if (this.hangs) await new Promise<void>((resolve) => this.hangs!.push(resolve));
        for (const batch of fresh) {
          this.ids.add(batch.id);
          this.rows += rowsOf(batch);
          for (const code of batch.codes) this.scans += code.scans;
        }
      };
      await (options?.commitGuard ? options.commitGuard(commit) : commit());
      return fresh.reduce((sum, batch) => sum + rowsOf(batch), 0);
    },
    forgetBatchesStoredBefore: async () => undefined,
  } as unknown as ScanStoreRepository;
}

describe('ScanBuffer', () => {
  let spillDir: string;
  const buffers: ScanBuffer[] = [];
  const bufferOn = (store: FakeStore, dir = spillDir) => {
    const buffer = new ScanBuffer(
      store.repository,
      noRedis,
      new MetricsService(),
      { scanSpillDir: dir, shutdownTimeoutMs: 5000 } as AppConfig,
      TEST_VISITORS,
    );
    buffers.push(buffer);
    return buffer;
  };
  /** `scans` as the API computes it: stored plus pending, read as one step. */
  const scansShown = async (buffer: ScanBuffer, store: FakeStore) => {
    const { result, pending } = await buffer.readWithPending(
      async () => store.scans,
      () => [CODE],
    );
    return result + (pending.get(CODE) ?? 0);
  };

  beforeEach(() => {
    spillDir = mkdtempSync(join(tmpdir(), 'scan-spill-'));
  });
  afterEach(async () => {
    for (const buffer of buffers.splice(0)) await buffer.beforeApplicationShutdown();
    rmSync(spillDir, { recursive: true, force: true });
  });

  it('shows every recorded scan at every moment: a stored batch leaves pending in the same step as its commit', async () => {
    const store = new FakeStore();
    const buffer = bufferOn(store);
    let recorded = 0;
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 7; i++, recorded++) buffer.record(scanOf());
      const flushing = buffer.flush();
      // Reads while the store runs, before and after its commit.
      const seen = await Promise.all(Array.from({ length: 5 }, async () => (await tick(), scansShown(buffer, store))));
      await flushing;
      for (const shown of seen) expect(shown).toBe(recorded);
    }
    expect(store.scans).toBe(recorded);
    expect(await scansShown(buffer, store)).toBe(recorded);
  });

  it('stores bots but never counts them', async () => {
    const store = new FakeStore();
    const buffer = bufferOn(store);
    buffer.record(scanOf({ isBot: true }));
    buffer.record(scanOf());
    expect(await scansShown(buffer, store)).toBe(1);
    await buffer.flush();
    expect(store.rows).toBe(2);
    expect(store.scans).toBe(1);
    expect(await scansShown(buffer, store)).toBe(1);
  });

  it('stages batches in the spill file while the database fails, keeps them pending, and stores them once when it is back', async () => {
    const store = new FakeStore();
    const buffer = bufferOn(store);
    store.failing = true;
    for (let i = 0; i < 3; i++) buffer.record(scanOf());
    await buffer.flush();
    expect(readdirSync(spillDir)).toHaveLength(1);
    expect(store.scans).toBe(0);
    expect(await scansShown(buffer, store)).toBe(3);
    store.failing = false;
    await buffer.flush();
    expect(store.scans).toBe(3);
    expect(await scansShown(buffer, store)).toBe(3);
    expect(readdirSync(spillDir).filter((name) => !name.startsWith('unstorable'))).toEqual([]);
  });

  it('writes what it still holds to the spill file at shutdown, and the next start stores it once', async () => {
    const store = new FakeStore();
    store.failing = true;
    const first = bufferOn(store);
    for (let i = 0; i < 4; i++) first.record(scanOf());
    first.spillSync();
    expect(await scansShown(first, store)).toBe(4);
    store.failing = false;
    const next = bufferOn(store);
    expect(await scansShown(next, store)).toBe(4);
    await next.flush();
    expect(store.scans).toBe(4);
    expect(await scansShown(next, store)).toBe(4);
    // A second replay of the same batches (a crash before the file was deleted) stores nothing twice.
    await next.flush();
    expect(store.scans).toBe(4);
  });

  it('never holds a read longer than a moment behind a commit that hangs', async () => {
    const store = new FakeStore();
    const buffer = bufferOn(store);
    buffer.record(scanOf());
    store.hangCommits();
    const flushing = buffer.flush(10_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    expect(await scansShown(buffer, store)).toBe(1);
    expect(Date.now() - started).toBeLessThan(1000);
    store.releaseCommits();
    await flushing;
    expect(await scansShown(buffer, store)).toBe(1);
  });

  it('gives up a flush after maxWaitMs when the store hangs, and spills the held scans at shutdown', async () => {
    const store = new FakeStore();
    const buffer = bufferOn(store);
    buffer.record(scanOf());
    store.hangCommits();
    const started = Date.now();
    await buffer.flush(200);
    expect(Date.now() - started).toBeLessThan(1000);
    buffer.spillSync();
    expect(readdirSync(spillDir).some((name) => name.endsWith('.spill'))).toBe(true);
    store.releaseCommits();
  });

  it('does not overlap hand-ons: while a store hangs, timer ticks are skipped, not queued', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
    try {
      const store = new FakeStore();
      const buffer = bufferOn(store);
      await buffer.onModuleInit();
      buffer.record(scanOf());
      store.hangCommits();
      await jest.advanceTimersByTimeAsync(1000);
      expect(store.calls).toBe(1);
      store.releaseCommits();
      await jest.advanceTimersByTimeAsync(200);
      expect(store.scans).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });
});
