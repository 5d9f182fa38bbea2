import { randomUUID } from 'node:crypto';

/**
 * The lease of the job runner (the one claim, periodic tasks): a claim writes a fresh token and an
 * expiry on what it takes; the worker changes it only while it still holds that token; what a
 * lease ran out on (its instance died or hangs) is free to claim again.
 */
export function newLeaseToken(): string {
  return randomUUID();
}

export function leaseUntil(now: Date, leaseMs: number): Date {
  return new Date(now.getTime() + leaseMs);
}
