import type { ThrottlerStorage } from '@nestjs/throttler';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Budget {
  hits: number;
  windowEndsAt: number;
  blockedUntil: number;
}

const SWEEP_INTERVAL_MS = 60_000;

/**
 * In-process rate-limit storage for the embedded default (no Redis), with the same fixed-window
 * rules as the Redis script: count hits until the window ends, block for blockDuration once past
 * the limit, start afresh after the block. A counter per budget, not the throttler's own storage,
 * which keeps every hit of the window in a list it filters on each request.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage {
  private readonly budgets = new Map<string, Budget>();
  private nextSweepAt: number;

  constructor(private readonly clock: () => number = Date.now) {
    this.nextSweepAt = clock() + SWEEP_INTERVAL_MS;
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const now = this.clock();
    if (now >= this.nextSweepAt) this.sweep(now);
    const id = `${key}:${throttlerName}`;
    let budget = this.budgets.get(id);
    if (!budget || (budget.windowEndsAt <= now && budget.blockedUntil <= now)) {
      budget = { hits: 0, windowEndsAt: now + ttl, blockedUntil: 0 };
      this.budgets.set(id, budget);
    } else if (budget.windowEndsAt <= now) {
      budget.hits = 0;
      budget.windowEndsAt = now + ttl;
    }
    budget.hits++;
    if (budget.blockedUntil <= now && budget.hits > limit) budget.blockedUntil = now + blockDuration;
    const isBlocked = budget.blockedUntil > now;
    return {
      totalHits: budget.hits,
      timeToExpire: Math.ceil((budget.windowEndsAt - now) / 1000),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.ceil((budget.blockedUntil - now) / 1000) : 0,
    };
  }

  /** Forgets budgets whose window and block are over (they would start afresh anyway). */
  sweep(now = this.clock()): void {
    this.nextSweepAt = now + SWEEP_INTERVAL_MS;
    for (const [id, budget] of this.budgets) if (budget.windowEndsAt <= now && budget.blockedUntil <= now) this.budgets.delete(id);
  }

  get size(): number {
    return this.budgets.size;
  }
}
