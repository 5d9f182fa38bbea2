import { type RawBuilder, sql } from 'kysely';
import { randomUUID } from 'node:crypto';

/**
 * The lease every leased work queue uses (jobs, webhook deliveries): a claim writes a fresh token
 * and an expiry on the rows it takes; the worker changes a row only while it still holds that token;
 * a row whose lease ran out (its instance died or hangs) is free to claim again.
 */
export function newLeaseToken(): string {
  return randomUUID();
}

export function leaseUntil(now: Date, leaseMs: number): Date {
  return new Date(now.getTime() + leaseMs);
}

/** The row's lease is free at `now`: never taken, or run out. `column`: the lease's expiry, e.g. `d.lease_expires_at`. */
export function leaseIsFree(column: string, now: Date): RawBuilder<boolean> {
  const expires = sql.ref(column);
  return sql<boolean>`(${expires} IS NULL OR ${expires} <= ${now})`;
}
