import { type BudgetRule, LeasedThrottlerStorage, type LeaseGrant, type LeaseSource } from './leased-throttler-storage';

/** The shared counter's rules (those of the Redis script) in memory, with a record of what was asked. */
class FakeSharedCounter implements LeaseSource {
  readonly asked: number[] = [];
  private readonly budgets = new Map<string, { hits: number; windowEndsAt: number; blockedUntil: number }>();
  failing = false;

  constructor(private readonly clock: () => number) {}

  async take(key: string, want: number, rule: BudgetRule): Promise<LeaseGrant> {
    this.asked.push(want);
    await Promise.resolve();
    if (this.failing) throw new Error('connection refused');
    const now = this.clock();
    const budget = this.budget(`${key}:${rule.name}`);
    if (budget.windowEndsAt <= now) Object.assign(budget, { hits: 0, windowEndsAt: now + rule.ttl });
    const timeToExpireMs = budget.windowEndsAt - now;
    if (budget.blockedUntil > now) return { granted: 0, totalHits: ++budget.hits, timeToExpireMs, blockedForMs: budget.blockedUntil - now };
    const granted = Math.max(0, Math.min(want, rule.limit - budget.hits));
    if (granted > 0) {
      budget.hits += granted;
      return { granted, totalHits: budget.hits, timeToExpireMs, blockedForMs: 0 };
    }
    budget.hits++;
    budget.blockedUntil = now + rule.blockDuration;
    return { granted: 0, totalHits: budget.hits, timeToExpireMs, blockedForMs: rule.blockDuration };
  }

  /** Another instance takes hits of the same budget. */
  takeElsewhere(key: string, n: number): void {
    this.budget(key).hits += n;
  }

  private budget(id: string) {
    let budget = this.budgets.get(id);
    if (!budget) this.budgets.set(id, (budget = { hits: 0, windowEndsAt: 0, blockedUntil: 0 }));
    return budget;
  }
}

describe('LeasedThrottlerStorage', () => {
  let now: number;
  let shared: FakeSharedCounter;
  let storage: LeasedThrottlerStorage;
  const hit = (limit: number, key = 'account:a') => storage.increment(key, 60_000, limit, 60_000, 'read');
  const hits = async (n: number, limit: number) => {
    const records = [];
    for (let i = 0; i < n; i++) records.push(await hit(limit));
    return records;
  };

  beforeEach(() => {
    now = 1_000_000;
    shared = new FakeSharedCounter(() => now);
    storage = new LeasedThrottlerStorage(shared, () => now);
  });

  it('under 100 hits a window, asks the shared counter for every hit: its exact rules and counts', async () => {
    const records = await hits(4, 3);
    expect(shared.asked).toEqual([1, 1, 1, 1]);
    expect(records.map((r) => [r.totalHits, r.isBlocked])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
    ]);
    expect(records[0]).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    expect(records[3]).toMatchObject({ timeToBlockExpire: 60 });
  });

  it('a busy budget leases more hits at a time (at most 1 % of the limit) and admits exactly the limit', async () => {
    const records = await hits(10_050, 10_000);
    const admitted = records.filter((r) => !r.isBlocked).length;
    expect(admitted).toBe(10_000);
    expect(records.slice(10_000).every((r) => r.isBlocked)).toBe(true);
    expect(Math.max(...shared.asked)).toBe(100);
    // 1, 2, 4, ... 64, then 100s: about 106 round trips instead of 10,050.
    expect(shared.asked.length).toBeLessThan(120);
    expect(records[9_999]).toMatchObject({ totalHits: 10_000, isBlocked: false });
  });

  it('reports the count as seen at the lease plus what it admitted since', async () => {
    await hits(3, 10_000);
    shared.takeElsewhere('account:a:read', 500);
    const records = await hits(10, 10_000);
    expect(records.map((r) => r.totalHits)).toEqual([504, 505, 506, 507, 508, 509, 510, 511, 512, 513]);
  });

  it('a lease that lasts shrinks the next one', async () => {
    await hits(127, 10_000); // leases 1, 2, 4, ..., 64
    expect(shared.asked.at(-1)).toBe(64);
    now += 2000;
    await hits(1, 10_000);
    expect(shared.asked.at(-1)).toBe(32);
  });

  it('drops what is left of a lease when the window ends', async () => {
    await hits(4, 10_000); // leases 1, 2, 4: 3 hits left
    now += 60_000;
    expect(await hit(10_000)).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(shared.asked).toHaveLength(4);
  });

  it('answers a blocked budget from memory until the block ends, then leases again', async () => {
    await hits(4, 3);
    const asked = shared.asked.length;
    expect(await hit(3)).toMatchObject({ isBlocked: true, timeToBlockExpire: 60 });
    now += 30_000;
    expect(await hit(3)).toMatchObject({ isBlocked: true, timeToBlockExpire: 30 });
    expect(shared.asked).toHaveLength(asked);
    now += 30_000;
    expect(await hit(3)).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(shared.asked).toHaveLength(asked + 1);
  });

  it('concurrent requests of one budget share one lease request at a time', async () => {
    await hits(7, 10_000); // leases 1, 2, 4: the next is 8
    const asked = shared.asked.length;
    const records = await Promise.all(Array.from({ length: 50 }, () => hit(10_000)));
    expect(records.every((r) => !r.isBlocked)).toBe(true);
    expect(new Set(records.map((r) => r.totalHits)).size).toBe(50);
    // 8 + 16 + 32 covers 50: three round trips, one after the other.
    expect(shared.asked.slice(asked)).toEqual([8, 16, 32]);
  });

  it('budgets of different accounts and names are apart', async () => {
    await hits(4, 3);
    expect((await hit(3)).isBlocked).toBe(true);
    expect(await hit(3, 'account:b')).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(await storage.increment('account:a', 60_000, 3, 60_000, 'write')).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('a failing shared counter fails every waiting request (the guard lets them through), and is asked again next time', async () => {
    shared.failing = true;
    const outcomes = await Promise.allSettled([hit(10_000), hit(10_000), hit(10_000)]);
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    expect(shared.asked).toHaveLength(1);
    shared.failing = false;
    expect(await hit(10_000)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('forgets budgets whose window is over', async () => {
    await hit(3, 'account:a');
    await hit(3, 'account:b');
    expect(storage.size).toBe(2);
    now += 61_000;
    await hit(3, 'account:c');
    expect(storage.size).toBe(1);
  });
});
