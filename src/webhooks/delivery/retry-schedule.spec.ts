import { baseRetryDelayMs, retryDelayMs } from '../../infra/jobs/retry-policy';
import { DELIVERY_RETRY, outcomeOf } from './retry-schedule';

const MAX_ATTEMPTS = DELIVERY_RETRY.maxAttempts!;

const S = 1000;
const H = 3_600_000;

describe('retry schedule', () => {
  it.each([
    [1, 10 * S],
    [2, 30 * S],
    [3, 90 * S],
    [4, 270 * S],
    [5, 810 * S],
    [6, 2430 * S],
    [7, 7290 * S],
    [8, 21_870 * S],
    [9, 12 * H],
    [13, 12 * H],
  ])('waits %i: %i ms before jitter', (n, ms) => {
    expect(baseRetryDelayMs(DELIVERY_RETRY, n)).toBe(ms);
  });

  it('spans about three days over its 13 retries', () => {
    const total = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => baseRetryDelayMs(DELIVERY_RETRY, i + 1)).reduce((a, b) => a + b, 0);
    expect(total / H).toBeCloseTo(69.1, 1);
    const shortest = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(DELIVERY_RETRY, i + 1, 0)).reduce((a, b) => a + b, 0);
    const longest = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(DELIVERY_RETRY, i + 1, 1)).reduce((a, b) => a + b, 0);
    expect(shortest / H).toBeGreaterThan(55);
    expect(longest / H).toBeLessThan(84);
  });

  it('jitters by at most 20 % either way', () => {
    expect(retryDelayMs(DELIVERY_RETRY, 2, 0)).toBe(24 * S);
    expect(retryDelayMs(DELIVERY_RETRY, 2, 0.5)).toBe(30 * S);
    expect(retryDelayMs(DELIVERY_RETRY, 2, 1)).toBe(36 * S);
  });
});

describe('outcomeOf', () => {
  const result = (statusCode: number | null, extra: { refused?: boolean; retryAfterMs?: number } = {}) => ({ statusCode, refused: false, ...extra });

  it.each([[200], [201], [204], [299]])('succeeds on %i', (status) => {
    expect(outcomeOf(result(status), 1)).toEqual({ outcome: 'succeeded' });
  });

  it.each([[null], [408], [429], [500], [502], [503], [504]])('retries %s', (status) => {
    expect(outcomeOf(result(status), 1, 0.5)).toEqual({ outcome: 'retrying', retryInMs: 10 * S });
  });

  it.each([[301], [302], [400], [401], [404], [410], [422]])('fails at once on %i (a redirect is not followed)', (status) => {
    expect(outcomeOf(result(status), 1)).toEqual({ outcome: 'failed' });
  });

  it('fails a refused target at once', () => {
    expect(outcomeOf(result(null, { refused: true }), 1)).toEqual({ outcome: 'failed' });
  });

  it('gives up after the last attempt', () => {
    expect(outcomeOf(result(500), MAX_ATTEMPTS - 1, 0.5).outcome).toBe('retrying');
    expect(outcomeOf(result(500), MAX_ATTEMPTS, 0.5)).toEqual({ outcome: 'failed' });
  });

  it('honours Retry-After up to the longest wait', () => {
    expect(outcomeOf(result(429, { retryAfterMs: 120 * S }), 1, 0.5)).toEqual({ outcome: 'retrying', retryInMs: 120 * S });
    expect(outcomeOf(result(429, { retryAfterMs: 1 * S }), 1, 0.5)).toEqual({ outcome: 'retrying', retryInMs: 10 * S });
    expect(outcomeOf(result(503, { retryAfterMs: 100 * H }), 1, 0.5)).toEqual({ outcome: 'retrying', retryInMs: 12 * H });
  });
});
