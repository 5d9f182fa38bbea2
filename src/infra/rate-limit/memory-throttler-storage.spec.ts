import { MemoryThrottlerStorage } from './memory-throttler-storage';

describe('MemoryThrottlerStorage', () => {
  let now: number;
  let storage: MemoryThrottlerStorage;
  const hit = (key = 'account:a', name = 'read') => storage.increment(key, 60_000, 3, 60_000, name);

  beforeEach(() => {
    now = 1_000_000;
    storage = new MemoryThrottlerStorage(() => now);
  });

  it('counts hits in a fixed window and reports its remaining seconds', async () => {
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    now += 15_500;
    expect(await hit()).toEqual({ totalHits: 2, timeToExpire: 45, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('blocks past the limit for the block duration, then starts afresh', async () => {
    for (let i = 0; i < 3; i++) expect((await hit()).isBlocked).toBe(false);
    expect(await hit()).toMatchObject({ totalHits: 4, isBlocked: true, timeToBlockExpire: 60 });
    now += 30_000;
    expect(await hit()).toMatchObject({ isBlocked: true, timeToBlockExpire: 30 });
    now += 30_000;
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('keeps accounts and budgets apart', async () => {
    for (let i = 0; i < 4; i++) await hit('account:a', 'write');
    expect((await hit('account:a', 'write')).isBlocked).toBe(true);
    expect(await hit('account:a', 'read')).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(await hit('account:b', 'write')).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('costs the same per request however much traffic came before (a counter, not a list of hits)', async () => {
    for (let i = 0; i < 100_000; i++) await storage.increment('account:busy', 60_000, 1_000_000, 60_000, 'read');
    expect(await storage.increment('account:busy', 60_000, 1_000_000, 60_000, 'read')).toMatchObject({ totalHits: 100_001 });
    expect(storage.size).toBe(1);
  });

  it('forgets budgets whose window and block are over', async () => {
    await hit('account:a');
    for (let i = 0; i < 3; i++) await hit('account:blocked');
    now += 10_000;
    expect((await hit('account:blocked')).isBlocked).toBe(true); // blocked until 70 s from the start
    now += 50_000;
    storage.sweep();
    expect(storage.size).toBe(1);
    now += 1;
    expect((await hit('account:blocked')).isBlocked).toBe(true);
  });
});
