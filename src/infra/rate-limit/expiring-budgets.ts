import type { ThrottlerStorage } from '@nestjs/throttler';

/** What a throttler storage answers per hit (@nestjs/throttler does not export the type from its index). */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

const SWEEP_INTERVAL_MS = 60_000;

/**
 * Per-budget state of an in-process throttler storage, by budget id, which forgets budgets whose
 * window and block are over (they would start afresh anyway), at most once a minute.
 */
export class ExpiringBudgets<Budget extends { windowEndsAt: number; blockedUntil: number }> {
  private readonly budgets = new Map<string, Budget>();
  private nextSweepAt: number;

  constructor(now: number) {
    this.nextSweepAt = now + SWEEP_INTERVAL_MS;
  }

  get(id: string): Budget | undefined {
    return this.budgets.get(id);
  }

  set(id: string, budget: Budget): void {
    this.budgets.set(id, budget);
  }

  sweepIfDue(now: number): void {
    if (now >= this.nextSweepAt) this.sweep(now);
  }

  sweep(now: number): void {
    this.nextSweepAt = now + SWEEP_INTERVAL_MS;
    for (const [id, budget] of this.budgets) if (budget.windowEndsAt <= now && budget.blockedUntil <= now) this.budgets.delete(id);
  }

  get size(): number {
    return this.budgets.size;
  }
}
