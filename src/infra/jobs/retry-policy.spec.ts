import { CLICKHOUSE_RETRY } from '../../analytics/clickhouse/clickhouse-export-outbox.repository';
import { JOBS_QUEUE } from './job-queue.repository';
import { afterFailure, baseRetryDelayMs, type RetryPolicy, retryDelayMs } from './retry-policy';

const S = 1000;

describe('retry policy', () => {
  // The webhook deliveries' schedule has its own table (retry-schedule.spec.ts).
  it.each<[string, RetryPolicy, number, number]>([
    ['clickhouse', CLICKHOUSE_RETRY, 1, 1 * S],
    ['clickhouse', CLICKHOUSE_RETRY, 2, 2 * S],
    ['clickhouse', CLICKHOUSE_RETRY, 3, 4 * S],
    ['clickhouse', CLICKHOUSE_RETRY, 6, 32 * S],
    ['clickhouse', CLICKHOUSE_RETRY, 7, 60 * S],
    ['clickhouse', CLICKHOUSE_RETRY, 1000, 60 * S],
    ['jobs', JOBS_QUEUE.retry, 1, 10 * S],
    ['jobs', JOBS_QUEUE.retry, 2, 20 * S],
    ['jobs', JOBS_QUEUE.retry, 4, 80 * S],
  ])('%s: retry %i waits %i ms before jitter', (_, policy, n, ms) => {
    expect(baseRetryDelayMs(policy, n)).toBe(ms);
    expect(retryDelayMs(policy, n, 0.5)).toBe(ms);
  });

  it('jitters by at most the policy’s share either way', () => {
    expect(retryDelayMs(CLICKHOUSE_RETRY, 3, 0)).toBe(3200);
    expect(retryDelayMs(CLICKHOUSE_RETRY, 3, 1)).toBe(4800);
  });

  it('gives up after the last attempt, or never', () => {
    expect(afterFailure(JOBS_QUEUE.retry, 4, 0.5)).toEqual({ retryInMs: 80 * S });
    expect(afterFailure(JOBS_QUEUE.retry, 5)).toBe('give-up');
    expect(afterFailure(CLICKHOUSE_RETRY, 1_000_000, 0.5)).toEqual({ retryInMs: 60 * S });
  });
});
