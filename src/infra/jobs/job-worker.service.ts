import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/time/clock';
import { Database } from '../database/database.service';
import type { Tables } from '../database/tables';
import { runInRequestContext } from '../http/request-context';
import { QueueMetrics } from '../observability/queue-metrics';
import { type JobKind, JobLeaseLost, requestContextOf } from './job';
import { ClaimLoop, type StepOutcome } from './claim-loop';
import { type ClaimedJob, JOBS_QUEUE, JobQueueRepository } from './job-queue.repository';
import { JobRunner } from './job-runner.service';
import { leaseUntil } from './lease';
import { afterFailure } from './retry-policy';

const IDLE_POLL_MS = 500;
const ERROR_PAUSE_MS = 2000;
/** After the grace period, shutdown waits this long more for jobs to reach their next progress report, where they stop and give the job back. */
const HAND_BACK_WAIT_MS = 1000;

/** A job that cannot succeed however often it is tried (its input is wrong): it fails at once. */
export class JobFailed extends Error {}

/** Thrown by a progress report when the instance is shutting down: the job is given back and resumes elsewhere. */
class JobStopped extends Error {}

/** What a running job may do: report progress (which renews its lease) in its own transaction or in the one of its work. */
export class JobRun {
  constructor(
    readonly job: ClaimedJob,
    private readonly queue: JobQueueRepository,
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly stopping: () => boolean,
  ) {}

  /**
   * Records `done` (and `total`) and renews the lease; with `tx`, as part of that transaction (so
   * the progress commits with the work it counts, and a resumed job starts after it). Throws when the
   * job must stop: the instance is shutting down, or another instance took the job over.
   */
  async progress(done: number, total?: number, tx?: Tables): Promise<void> {
    if (this.stopping()) throw new JobStopped('shutting down');
    const until = leaseUntil(this.clock.now(), JOBS_QUEUE.leaseMs);
    if (!(await this.queue.progress(tx ?? this.database.write, this.job, done, until, total))) throw new JobLeaseLost();
  }

  /** True once the instance shuts down: a job checks between steps that report no progress. */
  get stopRequested(): boolean {
    return this.stopping();
  }
}

export interface JobHandler {
  /** Does the job's work; returns its result (shown with the job). Throws JobFailed when it can never succeed. */
  run(run: JobRun): Promise<Record<string, unknown>>;
  /** How long after it ends the job (its result, its file) is kept. */
  keepForMs: number;
}

/**
 * Runs the jobs (docs/exports-and-imports.md#jobs): exports and imports through one queue, a
 * table in PostgreSQL (or PGlite). Any number of instances run one; a job is claimed by one at a
 * time (the runner's one claim), at most 2 of an account's at once (JOBS_QUEUE). A job reports
 * progress as it goes, which renews its lease; at shutdown it stops at its next report and is
 * given back, and a job whose instance died is claimed again when its lease runs out. Jobs resume
 * from their last progress: the handlers make that safe (an import commits rows with its progress).
 */
@Injectable()
export class JobWorker {
  private readonly logger = new Logger('Jobs');
  private readonly handlers = new Map<JobKind, JobHandler>();
  private readonly loop = new ClaimLoop({ step: () => this.step(), idlePollMs: IDLE_POLL_MS, errorPauseMs: ERROR_PAUSE_MS });
  /** Set when the grace period of a shutdown ran out: running jobs stop at their next progress report and are handed back. */
  private handingBack = false;

  constructor(
    private readonly queue: JobQueueRepository,
    private readonly database: Database,
    private readonly metrics: QueueMetrics,
    @Inject(CLOCK) private readonly clock: Clock,
    runner: JobRunner,
  ) {
    runner.queue({ queue: this.queue.leased, start: () => this.loop.start(), stop: (graceMs) => this.stop(graceMs) });
  }

  /** Called by the feature modules as they are built (before bootstrap). */
  register(kind: JobKind, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Looks for jobs now rather than at the next poll (after this instance queued one; a no-op where the role runs no jobs). */
  nudge(): void {
    this.loop.nudge();
  }

  /** Stops claiming; running jobs may finish within `graceMs`, then stop at their next progress report and are handed back. */
  private async stop(graceMs: number): Promise<void> {
    await this.loop.stop(Math.min(graceMs, 2000));
    await this.loop.drain(graceMs);
    this.handingBack = true;
    await this.loop.drain(HAND_BACK_WAIT_MS);
  }

  private async step(): Promise<StepOutcome> {
    const free = JOBS_QUEUE.batch - this.loop.running;
    let claimed: ClaimedJob[] = [];
    if (free > 0) {
      try {
        claimed = await this.queue.claim([...this.handlers.keys()], this.clock.now(), free);
      } catch (error) {
        this.logger.warn(`Jobs not claimed this time: ${(error as Error).message}`);
        return 'failed';
      }
    }
    for (const job of claimed) this.loop.track(runInRequestContext(requestContextOf(job.submittedBy), () => this.execute(job)));
    return claimed.length === 0 || this.loop.running >= JOBS_QUEUE.batch ? 'idle' : 'more';
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const handler = this.handlers.get(job.kind)!;
    const run = new JobRun(job, this.queue, this.database, this.clock, () => this.handingBack);
    try {
      const result = await handler.run(run);
      await this.end(job, handler, { status: 'done', result, error: null });
    } catch (error) {
      if (error instanceof JobStopped) return this.giveBack(job, 0);
      if (error instanceof JobLeaseLost) return this.logger.warn(`Job ${job.id} was taken over by another instance; this one stops`);
      if (error instanceof JobFailed) return this.end(job, handler, { status: 'failed', result: null, error: error.message });
      this.logger.error(`Job ${job.id} (${job.kind}) failed on attempt ${job.attempts}: ${(error as Error).stack ?? String(error)}`);
      const next = afterFailure(JOBS_QUEUE.retry, job.attempts);
      if (next === 'give-up') return this.end(job, handler, { status: 'failed', result: null, error: 'The job failed; see the server log' });
      this.metrics.retried(JOBS_QUEUE.name);
      await this.giveBack(job, next.retryInMs);
    }
  }

  private async end(
    job: ClaimedJob,
    handler: JobHandler,
    end: { status: 'done' | 'failed'; result: Record<string, unknown> | null; error: string | null },
  ) {
    const now = this.clock.now();
    if (end.status === 'failed') this.metrics.jobFailed(JOBS_QUEUE.name);
    try {
      await this.queue.finish(this.database.write, job, { ...end, now, expiresAt: new Date(now.getTime() + handler.keepForMs) });
    } catch (error) {
      // Its lease runs out and the job is claimed again: it resumes from its last progress.
      this.logger.warn(`Job ${job.id} not recorded as ${end.status}: ${(error as Error).message}`);
    }
  }

  /** Queues the job again, due after `delayMs` (0: at once, and the attempt is not counted). */
  private async giveBack(job: ClaimedJob, delayMs: number): Promise<void> {
    try {
      await this.queue.release(job, new Date(this.clock.now().getTime() + delayMs), delayMs === 0);
    } catch (error) {
      this.logger.warn(`Job ${job.id} not given back (its lease runs out instead): ${(error as Error).message}`);
    }
  }
}
