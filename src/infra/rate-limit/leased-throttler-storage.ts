import type { ThrottlerStorage } from '@nestjs/throttler';
import { ExpiringBudgets, type ThrottlerStorageRecord } from './expiring-budgets';

/** One budget's rule, as the throttler passes it (milliseconds). */
export interface BudgetRule {
  ttl: number;
  limit: number;
  blockDuration: number;
  /** The budget's name (read, write): part of the shared key. */
  name: string;
}

/** What the shared counter gave: `granted` hits of the window, or none and a block. */
export interface LeaseGrant {
  /** Hits this instance may now admit on its own (0 when blocked). */
  granted: number;
  /** The shared count after this lease (when blocked: including the refused hit). */
  totalHits: number;
  /** Until the window ends. */
  timeToExpireMs: number;
  /** > 0: the budget is used up and blocked for this long. */
  blockedForMs: number;
}

/** The shared counter (Redis): takes up to `want` hits of a budget's window, never beyond its limit. */
export interface LeaseSource {
  take(key: string, want: number, rule: BudgetRule): Promise<LeaseGrant>;
}

interface LocalBudget {
  /** Leased hits not yet admitted. */
  left: number;
  /** The count this instance reports: the shared count at the lease, plus what it admitted since. */
  seen: number;
  windowEndsAt: number;
  blockedUntil: number;
  /** Size of the next lease: grows while leases run out fast, shrinks when they last. */
  leaseSize: number;
  leasedAt: number;
}

/** A lease used up faster than this means a busy budget: the next one is twice the size. */
const FAST_LEASE_MS = 100;
/** A lease lasting longer than this means a quiet one: the next one is half the size. */
const SLOW_LEASE_MS = 1000;
/**
 * A lease is at most this share of the limit: what one instance may hold unused (and so keep
 * other instances from admitting until the window ends). Limits under 100 lease one hit at a
 * time: exactly the shared counter's own rules.
 */
const MAX_LEASE_SHARE = 0.01;

/**
 * Rate-limit storage that counts locally against leases of the shared budget, so a busy account
 * costs a Redis round trip per lease rather than per request (on an image cache hit the round trip
 * was a fifth of the request's CPU). A lease is taken from the shared counter before any of its
 * hits is admitted, so all instances together never admit more than the limit; a lease is at
 * most 1 % of the limit, so an instance holding an unused lease can keep the others from at most
 * that much. Quiet budgets lease one hit at a time, which is the shared counter's exact rules.
 * Concurrent requests of a budget share one lease request.
 */
export class LeasedThrottlerStorage implements ThrottlerStorage {
  private readonly budgets: ExpiringBudgets<LocalBudget>;
  private readonly leasing = new Map<string, Promise<void>>();

  constructor(
    private readonly source: LeaseSource,
    private readonly clock: () => number = Date.now,
  ) {
    this.budgets = new ExpiringBudgets(clock());
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const id = `${key}:${throttlerName}`;
    for (;;) {
      const admitted = this.admitLocally(id);
      if (admitted) return admitted;
      const pending = this.leasing.get(id);
      if (pending) {
        await pending;
        continue;
      }
      const lease = this.lease(id, key, { ttl, limit, blockDuration, name: throttlerName });
      this.leasing.set(id, lease);
      try {
        await lease;
      } finally {
        this.leasing.delete(id);
      }
    }
  }

  /** The answer from the local lease, or undefined when a new lease is needed. */
  private admitLocally(id: string): ThrottlerStorageRecord | undefined {
    const budget = this.budgets.get(id);
    if (!budget) return undefined;
    const now = this.clock();
    if (budget.blockedUntil > now) {
      return {
        totalHits: budget.seen,
        timeToExpire: Math.ceil(Math.max(0, budget.windowEndsAt - now) / 1000),
        isBlocked: true,
        timeToBlockExpire: Math.ceil((budget.blockedUntil - now) / 1000),
      };
    }
    if (budget.left === 0 || budget.windowEndsAt <= now) return undefined;
    budget.left--;
    budget.seen++;
    return { totalHits: budget.seen, timeToExpire: Math.ceil((budget.windowEndsAt - now) / 1000), isBlocked: false, timeToBlockExpire: 0 };
  }

  private async lease(id: string, key: string, rule: BudgetRule): Promise<void> {
    const now = this.clock();
    this.budgets.sweepIfDue(now);
    const previous = this.budgets.get(id);
    const want = previous ? nextLeaseSize(previous, rule.limit, now) : 1;
    const grant = await this.source.take(key, want, rule);
    if (grant.granted <= 0 && grant.blockedForMs <= 0) throw new Error(`Rate-limit storage granted nothing and no block for ${id}`);
    const at = this.clock();
    this.budgets.set(id, {
      left: Math.max(0, grant.granted),
      seen: grant.blockedForMs > 0 ? grant.totalHits : grant.totalHits - grant.granted,
      windowEndsAt: at + grant.timeToExpireMs,
      blockedUntil: grant.blockedForMs > 0 ? at + grant.blockedForMs : 0,
      leaseSize: want,
      leasedAt: at,
    });
  }

  get size(): number {
    return this.budgets.size;
  }
}

function nextLeaseSize(previous: LocalBudget, limit: number, now: number): number {
  const max = Math.max(1, Math.floor(limit * MAX_LEASE_SHARE));
  const lasted = now - previous.leasedAt;
  const size = lasted < FAST_LEASE_MS ? previous.leaseSize * 2 : lasted > SLOW_LEASE_MS ? Math.floor(previous.leaseSize / 2) : previous.leaseSize;
  return Math.min(max, Math.max(1, size));
}
