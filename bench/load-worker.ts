/**
 * autocannon in its own process (forked by bench/list.ts), so that the load generator does not
 * share the app's event loop. Receives one job, answers with the latency percentiles, exits.
 */
import { performance } from 'node:perf_hooks';
import { percentile } from './percentile';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon');

export interface LoadJob {
  options: Record<string, unknown>;
  /** Seconds of warm-up before measuring (0 = none). */
  warmup: number;
  duration?: number;
  /** Requests one at a time instead of a duration (serial latency). */
  amount?: number;
  /** GET /api/v1/qrcodes/:id over these ids, in turn. */
  ids?: string[];
}

export interface LoadResult {
  requests: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  rps: number;
  statuses: string;
}

async function run(job: LoadJob): Promise<LoadResult> {
  const options = { ...job.options };
  if (job.ids) {
    const ids = job.ids;
    let next = 0;
    options.requests = [
      { method: 'GET', setupRequest: (request: Record<string, unknown>) => ({ ...request, path: `/api/v1/qrcodes/${ids[next++ % ids.length]}` }) },
    ];
  }
  if (job.warmup > 0) await autocannon({ ...options, duration: job.warmup });
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let errors = 0;
  const started = performance.now();
  const instance = autocannon(job.amount ? { ...options, amount: job.amount } : { ...options, duration: job.duration });
  instance.on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status >= 400) errors++;
  });
  const result = await instance;
  const elapsed = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    errors: errors + result.errors + result.timeouts,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? NaN,
    rps: latencies.length / elapsed,
    statuses: [...statuses].map(([status, count]) => `${status}x${count}`).join(' '),
  };
}

process.once('message', (job: LoadJob) => {
  run(job).then(
    (result) => process.send?.(result, () => process.exit(0)),
    (error: Error) => {
      console.error(error);
      process.exit(1);
    },
  );
});
