import { Injectable } from '@nestjs/common';
import { Counter, Gauge, register } from 'prom-client';

/** What the job runner measures at each scrape: every queue's depth, and when each periodic task last succeeded. */
export interface QueueMeasure {
  queues: Array<{ name: string; depth: { ready: number; oldestReadySeconds: number; running: number } }>;
  lastSuccesses: Map<string, Date>;
}

/** The measure of the app built last (prom-client's registry is process-global; tests build several apps). */
let measureNow: (() => Promise<QueueMeasure>) | null = null;
/** A scrape reads the database once for all the gauges below, whichever of them prom-client collects first. */
let measuring: Promise<QueueMeasure | null> | null = null;

function measureOnce(): Promise<QueueMeasure | null> {
  measuring ??= (measureNow?.() ?? Promise.resolve(null)).catch(() => null).finally(() => setImmediate(() => (measuring = null)));
  return measuring;
}

function queueGauge(name: string, help: string, value: (depth: QueueMeasure['queues'][number]['depth']) => number): Gauge {
  return reuse(
    name,
    () =>
      new Gauge({
        name,
        help,
        labelNames: ['queue'],
        async collect() {
          const measure = await measureOnce();
          if (!measure) return;
          this.reset();
          for (const queue of measure.queues) this.set({ queue: queue.name }, value(queue.depth));
        },
      }),
  );
}

/**
 * The job runner's metrics on /metrics (docs/operations.md#jobs): per queue its depth (ready
 * jobs), the age of its oldest ready job, its running jobs (over every instance, read from the
 * database at each scrape), and this instance's failed jobs and retries; per periodic task the
 * time of its last success (over every instance).
 */
@Injectable()
export class QueueMetrics {
  readonly depth = queueGauge('job_queue_depth', 'Jobs ready to run now, per queue (all instances)', (d) => d.ready);
  readonly oldestReady = queueGauge(
    'job_queue_oldest_ready_seconds',
    'Age of the oldest job ready to run, per queue (0: none waiting)',
    (d) => d.oldestReadySeconds,
  );
  readonly running = queueGauge('job_queue_running', 'Jobs leased by a worker of any instance, per queue', (d) => d.running);
  readonly failed = counter('job_queue_failed_total', 'Jobs that failed for good on this instance, per queue');
  readonly retries = counter('job_queue_retries_total', 'Failed attempts this instance scheduled again, per queue');
  readonly lastSuccess = reuse(
    'periodic_task_last_success_seconds',
    () =>
      new Gauge({
        name: 'periodic_task_last_success_seconds',
        help: 'When each periodic task last finished a run on any instance (Unix time)',
        labelNames: ['task'],
        async collect() {
          const measure = await measureOnce();
          if (!measure) return;
          this.reset();
          for (const [task, at] of measure.lastSuccesses) this.set({ task }, at.getTime() / 1000);
        },
      }),
  );

  /** Set by the job runner: what a scrape reads. */
  measureWith(measure: () => Promise<QueueMeasure>): void {
    measureNow = measure;
  }

  jobFailed(queue: string, count = 1): void {
    this.failed.inc({ queue }, count);
  }

  retried(queue: string, count = 1): void {
    this.retries.inc({ queue }, count);
  }

  /** Recorded by the runner; the gauge itself reads the database at the next scrape. */
  periodicSucceeded(task: string, at: Date): void {
    this.lastSuccess.set({ task }, at.getTime() / 1000);
  }
}

function reuse<T>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create();
}

function counter(name: string, help: string): Counter {
  return reuse(name, () => new Counter({ name, help, labelNames: ['queue'] }));
}
