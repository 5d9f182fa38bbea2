import { afterFailure, type RetryPolicy } from '../../infra/jobs/retry-policy';

/**
 * When a failed delivery is tried again (docs/webhooks.md, "Retries"): the n-th retry waits
 * 10 s × 3^(n-1), at most 12 h, each stretched or shrunk by up to 20 % at random (jitter, so that
 * the deliveries of one outage do not come back in one wave). 13 retries after the first attempt:
 * 10 s, 30 s, 1.5 min, 4.5 min, 13.5 min, 40.5 min, 2 h, 6 h, then 12 h five times, about 69 hours
 * (2.9 days) in all; the 14th failed attempt fails the delivery.
 */
export const DELIVERY_RETRY: RetryPolicy = { firstDelayMs: 10_000, factor: 3, maxDelayMs: 12 * 3_600_000, jitter: 0.2, maxAttempts: 14 };

/** Whether a response status is worth retrying: timeouts, rate limits and server errors. */
export const isRetryableStatus = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** What an attempt leads to. */
export type AttemptOutcome = { outcome: 'succeeded' } | { outcome: 'retrying'; retryInMs: number } | { outcome: 'failed' };

export interface AttemptResult {
  /** The HTTP status, or null when no response came (network error, timeout, refused target). */
  statusCode: number | null;
  /** Refused before sending (an address the rules forbid, a secret that cannot be read): retrying would not help. */
  refused: boolean;
  /** A 429's or 503's Retry-After, in milliseconds, when it gave one. */
  retryAfterMs?: number;
}

/** The outcome of the attempt that is number `attempt` (1-based) of the delivery's schedule. */
export function outcomeOf(result: AttemptResult, attempt: number, random: number = Math.random()): AttemptOutcome {
  const { statusCode } = result;
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return { outcome: 'succeeded' };
  const retryable = !result.refused && (statusCode === null || isRetryableStatus(statusCode));
  const next = afterFailure(DELIVERY_RETRY, attempt, random);
  if (!retryable || next === 'give-up') return { outcome: 'failed' };
  // A receiver asking for more time gets it, within the schedule's longest wait.
  const asked = result.retryAfterMs !== undefined ? Math.min(result.retryAfterMs, DELIVERY_RETRY.maxDelayMs) : 0;
  return { outcome: 'retrying', retryInMs: Math.max(next.retryInMs, asked) };
}
