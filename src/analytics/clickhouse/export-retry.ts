/**
 * When a batch whose export failed is tried again: 1 s after its first claim, doubling to at most
 * a minute, each stretched or shrunk by up to 20 % at random (so the batches of one outage do not
 * come back in one wave). Never given up: a batch stays in the outbox until ClickHouse takes it.
 */
const FIRST_RETRY_MS = 1000;
const MAX_DELAY_MS = 60_000;
const JITTER = 0.2;

/** The delay after the failure of a batch's `claims`-th claim (1-based), with jitter from `random` (0..1). */
export function exportRetryDelayMs(claims: number, random: number = Math.random()): number {
  const base = Math.min(MAX_DELAY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, Math.min(claims - 1, 16)));
  return Math.round(base * (1 - JITTER + 2 * JITTER * random));
}
