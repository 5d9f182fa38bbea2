import type { ThrottlerStorage } from '@nestjs/throttler';
import { ExpiringBudgets, type ThrottlerStorageRecord } from './expiring-budgets';

interface Budget {
  hits: number;
  windowEndsAt: number;
  blockedUntil: number;
}

/**
 * In-process rate-limit storage for the embedded default (no Redis), with the same fixed-window
 * rules as the Redis script: count hits until the window ends, block for blockDuration once past
 * the limit, start afresh after the block. A counter per budget, not the throttler's own storage,
 * which keeps every hit of the window in a list it filters on each request.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage {
  private readonly budgets: ExpiringBudgets<Budget>;

  constructor(private readonly clock: () => number = Date.now) {
    this.budgets = new ExpiringBudgets(clock());
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const now = this.clock();
    this.budgets.sweepIfDue(now);
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
    this.budgets.sweep(now);
  }

  get size(): number {
    return this.budgets.size;
  }
}
