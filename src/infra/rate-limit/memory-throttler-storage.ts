import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';

interface Budget {
  hits: number;
  windowEndsAt: number;
  blockedUntil: number;
}

const SWEEP_INTERVAL_MS = 60_000;

/**
 * In-process rate-limit storage for the embedded default (no Redis), with the same fixed-window
 * rules as the Redis script: count hits until the window ends, block for blockDuration once past
 * the limit, start afresh after the block. O(1) per request: the throttler's own in-memory storage
 * keeps every hit's expiry and filters that list on each request, so its cost grows with the
 * traffic of the last minute (image cache hits fell from 3,700/s to 970/s within 20 s of load).
 */
export class MemoryThrottlerStorage implements ThrottlerStorage {
  private readonly budgets = new Map<string, Budget>();

  constructor(private readonly clock: () => number = Date.now) {
    setInterval(() => this.sweep(), SWEEP_INTERVAL_MS).unref();
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const now = this.clock();
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
    for (const [id, budget] of this.budgets) if (budget.windowEndsAt <= now && budget.blockedUntil <= now) this.budgets.delete(id);
  }

  get size(): number {
    return this.budgets.size;
  }
}
