/**
 * When failed work is tried again: the one backoff of the job runner (docs/architecture.md#jobs),
 * with each queue's settings as data. Retry n (1-based) waits firstDelayMs × factor^(n-1), at most
 * maxDelayMs, stretched or shrunk by up to `jitter` at random (so that the work of one outage does
 * not come back in one wave); the attempt number maxAttempts that fails fails for good.
 */
export interface RetryPolicy {
  firstDelayMs: number;
  factor: number;
  maxDelayMs: number;
  /** Share of the delay added or taken at random (0.2: ±20 %). */
  jitter: number;
  /** The attempt after which the work fails for good; null: tried again forever. */
  maxAttempts: number | null;
}

/** The delay before retry `n` (1-based), without jitter. */
export function baseRetryDelayMs(policy: RetryPolicy, n: number): number {
  const steps = Math.max(0, Math.min(n - 1, 64));
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * policy.factor ** steps);
}

/** The delay before retry `n` (1-based), with jitter from `random` (0..1). */
export function retryDelayMs(policy: RetryPolicy, n: number, random: number = Math.random()): number {
  return Math.round(baseRetryDelayMs(policy, n) * (1 - policy.jitter + 2 * policy.jitter * random));
}

/** After attempt number `attempt` (1-based) failed: how long until the next, or `give-up`. */
export function afterFailure(policy: RetryPolicy, attempt: number, random: number = Math.random()): { retryInMs: number } | 'give-up' {
  if (policy.maxAttempts !== null && attempt >= policy.maxAttempts) return 'give-up';
  return { retryInMs: retryDelayMs(policy, attempt, random) };
}
