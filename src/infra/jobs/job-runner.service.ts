import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK, type Clock, systemClock } from '../../common/time/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { runsJobs } from '../../config/process-role';
import { QueueMetrics } from '../observability/queue-metrics';
import { ClaimLoop } from './claim-loop';
import { leaseUntil, newLeaseToken } from './lease';
import type { LeasedQueueRepository } from './leased-queue.repository';
import { type RetryPolicy, retryDelayMs } from './retry-policy';
import { PeriodicTaskRunsRepository } from './periodic-task-runs.repository';

/**
 * A queue the runner runs: its table and settings (the one claim, retry policy, sweep and depth
 * read them), and its worker, started on the instances whose role runs jobs and stopped at
 * shutdown within the grace period.
 */
export interface QueueDefinition {
  queue: LeasedQueueRepository;
  /** Whether this instance works the queue at all (ClickHouse configured). */
  enabled?: () => boolean;
  start(): void;
  /** Stops claiming; running jobs get up to `graceMs` to finish, then are handed back (their attempt not counted). */
  stop(graceMs: number): Promise<void>;
}

/** What a periodic task's run gets: the period it runs for, and whether it must stop early (shutdown, lease lost). */
export interface PeriodicRun {
  periodStart: Date;
  readonly stopRequested: () => boolean;
}

/** A task run once per period across the cluster (docs/architecture.md#jobs). */
export interface PeriodicTaskDefinition {
  /** Its key in periodic_task_runs and its /metrics label. */
  name: string;
  /** Period length; periods start at multiples of it since the epoch (UTC hours, UTC days). */
  everyMs: number;
  /** When a failed run is tried again (by any instance), within its period: PERIODIC_RETRY unless given. */
  retry?: RetryPolicy;
  /** `cut-short`: it stopped early (stopRequested) and left work: the period is handed on, not done. */
  run(run: PeriodicRun): Promise<void | 'cut-short'>;
}

export const HOUR_MS = 3_600_000;
/** How often a worker looks for periodic tasks due (a task whose instance died is taken over within one lease plus this). */
const PERIODIC_TICK_MS = 5000;
/** A periodic run's lease, renewed every third of it while the run goes on. */
export const PERIODIC_LEASE_MS = 60_000;
/** A failed run is tried again after 1 min, 2, 4, 8, then every 15 min (within its period). */
const PERIODIC_RETRY: RetryPolicy = { firstDelayMs: 60_000, factor: 2, maxDelayMs: 15 * 60_000, jitter: 0.2, maxAttempts: null };
/** Runs are kept this long (what ran when, for an operator); the sweep is a periodic task itself. */
const RUNS_KEPT_MS = 7 * 24 * HOUR_MS;

/**
 * The one job runner (docs/architecture.md#jobs). Every piece of background work is a queue or a
 * periodic task registered here by its feature (in its constructor, before bootstrap); the runner
 * starts them only where the process role runs jobs (`ROLE=all|worker`; an `api` process only
 * enqueues), stops them at shutdown within SHUTDOWN_GRACE_MS, runs each periodic task once per
 * period across the cluster, and is the one place to read what is queued.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('JobRunner');
  private readonly queues: QueueDefinition[] = [];
  private readonly tasks: PeriodicTaskDefinition[] = [];
  /** Per task: not worth looking before this time (its period is done, or another instance holds its lease). */
  private readonly nextLookAt = new Map<string, number>();
  private readonly scheduler = new ClaimLoop({
    step: async () => {
      await this.runDuePeriodicTasks();
      return 'idle';
    },
    idlePollMs: PERIODIC_TICK_MS,
    errorPauseMs: PERIODIC_TICK_MS,
  });
  private started = false;
  private stopping = false;
  /** The scheduler's last look at the database failed (readiness of a worker). */
  private lastLookFailed = false;
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly runs: PeriodicTaskRunsRepository,
    private readonly metrics: QueueMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.periodic({ name: 'periodic-runs-sweep', everyMs: 24 * HOUR_MS, run: () => this.forgetOldRuns() });
    metrics.measureWith(() => this.measure());
  }

  /** Registers a queue (features do, in their constructors), and its sweep as the hourly task `<name>-sweep`. */
  queue(definition: QueueDefinition): void {
    this.queues.push(definition);
    const { queue } = definition;
    if (!queue.settings.sweep) return;
    this.periodic({
      name: `${queue.settings.name}-sweep`,
      everyMs: HOUR_MS,
      run: async (run) => {
        while ((await queue.sweep(this.clock.now())) > 0) if (run.stopRequested()) return 'cut-short';
      },
    });
  }

  /** Registers a periodic task (features do, in their constructors). */
  periodic(definition: PeriodicTaskDefinition): void {
    this.tasks.push(definition);
  }

  /** Whether this process works the queues and periodic tasks (its role). */
  get active(): boolean {
    return runsJobs(this.config.role);
  }

  onApplicationBootstrap(): void {
    if (!this.active) return;
    this.started = true;
    for (const queue of this.queues) if (queue.enabled?.() ?? true) queue.start();
    // Time a test moves by hand moves the periodic tasks by hand too (runDuePeriodicTasks): none runs behind its back.
    if (this.clock === systemClock) this.scheduler.start();
  }

  /** Stops claiming everywhere; running work gets SHUTDOWN_GRACE_MS, then is handed back. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.started) return;
    this.stopping = true;
    const graceMs = this.config.shutdownGraceMs;
    await Promise.all([
      this.scheduler.stop(graceMs),
      ...this.queues.filter((queue) => queue.enabled?.() ?? true).map((queue) => queue.stop(graceMs)),
      withinTime(Promise.allSettled([...this.running]), graceMs + 1000),
    ]);
  }

  /** Whether a worker can claim: started, and its last look at the database answered (/health/ready). */
  claimState(): 'claiming' | 'not_running' | 'failing' {
    if (!this.started || this.stopping) return 'not_running';
    return this.lastLookFailed ? 'failing' : 'claiming';
  }

  /**
   * Runs every periodic task whose current period no instance has run (or whose run's instance
   * died): the scheduler's step, every PERIODIC_TICK_MS; tests call it after moving the clock.
   */
  async runDuePeriodicTasks(): Promise<void> {
    const now = this.clock.now();
    for (const task of this.tasks) {
      if (this.stopping) return;
      if ((this.nextLookAt.get(task.name) ?? 0) > now.getTime()) continue;
      const periodStart = new Date(Math.floor(now.getTime() / task.everyMs) * task.everyMs);
      try {
        const claim = await this.runs.claim(task.name, periodStart, now, leaseUntil(now, PERIODIC_LEASE_MS), newLeaseToken());
        this.lastLookFailed = false;
        if (!claim.claimed) {
          this.nextLookAt.set(task.name, claim.lookAgainAt?.getTime() ?? periodStart.getTime() + task.everyMs);
          continue;
        }
        this.nextLookAt.set(task.name, periodStart.getTime() + task.everyMs);
        await this.track(this.runClaimed(task, periodStart, claim));
      } catch (error) {
        this.lastLookFailed = true;
        this.logger.warn(`Periodic task ${task.name} not claimed this time: ${(error as Error).message}`);
      }
    }
  }

  private async runClaimed(task: PeriodicTaskDefinition, periodStart: Date, { token, claims }: { token: string; claims: number }): Promise<void> {
    let lost = false;
    const heartbeat = setInterval(() => {
      this.runs
        .renew(task.name, periodStart, token, leaseUntil(this.clock.now(), PERIODIC_LEASE_MS))
        .then((held) => (lost ||= !held))
        .catch((error: Error) => this.logger.warn(`Lease of ${task.name} not renewed this time: ${error.message}`));
    }, PERIODIC_LEASE_MS / 3);
    heartbeat.unref();
    let error: string | null = null;
    let cutShort = false;
    try {
      cutShort = (await task.run({ periodStart, stopRequested: () => this.stopping || lost })) === 'cut-short';
    } catch (failure) {
      error = (failure as Error).message;
      this.logger.warn(`Periodic task ${task.name} failed (tried again later): ${error}`);
    } finally {
      clearInterval(heartbeat);
    }
    const now = this.clock.now();
    if (cutShort) {
      // Whoever looks next (another instance, or this one after a restart) finishes the period.
      return this.runs.release(task.name, periodStart, token, now).catch((releaseError: Error) => {
        this.logger.warn(`Run of ${task.name} not handed back (its lease runs out instead): ${releaseError.message}`);
      });
    }
    if (error === null) this.metrics.periodicSucceeded(task.name, now);
    const retryAt = new Date(now.getTime() + retryDelayMs(task.retry ?? PERIODIC_RETRY, claims));
    if (error !== null) this.nextLookAt.set(task.name, retryAt.getTime());
    await this.runs.end(task.name, periodStart, token, { now, error, retryAt }).catch((endError: Error) => {
      this.logger.warn(`Run of ${task.name} not recorded (its lease runs out and it runs again): ${endError.message}`);
    });
  }

  private track(work: Promise<void>): Promise<void> {
    this.running.add(work);
    return work.finally(() => this.running.delete(work));
  }

  private async forgetOldRuns(): Promise<void> {
    await this.runs.forgetBefore(new Date(this.clock.now().getTime() - RUNS_KEPT_MS));
  }

  /** What every queue holds and when each task last succeeded: QueueMetrics calls it at each scrape. */
  private async measure() {
    const now = this.clock.now();
    const queues = await Promise.all(this.queues.map(async ({ queue }) => ({ name: queue.settings.name, depth: await queue.depth(now) })));
    return { queues, lastSuccesses: await this.runs.lastSuccesses() };
  }
}

async function withinTime(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}
