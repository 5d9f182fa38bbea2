/**
 * What one step of a claim loop found: `more` claimed work and may find more at once; `idle` found
 * nothing (or has no room); `failed` could not reach the database (the loop waits `errorPauseMs`);
 * `{ retryInMs }` failed and chose its own backoff.
 */
export type StepOutcome = 'more' | 'idle' | 'failed' | { retryInMs: number };

export interface ClaimLoopOptions {
  /**
   * One step: claims due rows under a lease (with SKIP LOCKED, so instances claiming at once
   * take different rows) and starts their work through `track`. Handles its own errors and
   * answers `failed` for them.
   */
  step: () => Promise<StepOutcome>;
  /** How long an idle loop waits before it looks again (unless nudged or work it tracks ends). */
  idlePollMs: number;
  /** How long the loop waits after a failed step. */
  errorPauseMs: number;
  /** Once stopping, the loop still steps while this holds (work left to record); it never claims then. */
  workLeftAtStop?: () => boolean;
}

/**
 * The loop every queue of the job runner runs (docs/architecture.md#jobs): the jobs queue's worker,
 * the webhook delivery worker, the ClickHouse export, and the runner's scheduler of periodic tasks.
 * Each queue owns its claim rules (per-account slots for jobs, per-endpoint slots and the retry
 * schedule for deliveries, batches and their backoff for the export); this is what they share: step
 * while there is work, wait (woken by a nudge or by tracked work ending) while there is none, back
 * off after a failure, and at shutdown stop claiming and wait a bounded time for the work in flight.
 * A lease left by an instance that died runs out and the row is claimed again.
 */
export class ClaimLoop {
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly options: ClaimLoopOptions) {}

  start(): void {
    this.loop = this.run();
  }

  /** True once stopping: no more claims; work in flight checks it between steps. */
  get stopRequested(): boolean {
    return this.stopping;
  }

  /** Work started by a step and not ended yet. */
  get running(): number {
    return this.inFlight.size;
  }

  /** Steps now rather than at the next poll (after this instance queued work, or a slot freed). */
  nudge(): void {
    this.wake?.();
  }

  /** Counts `work` in flight until it ends; its end wakes the loop (its slot is free). */
  track(work: Promise<void>): void {
    const tracked = work.finally(() => {
      this.inFlight.delete(tracked);
      this.nudge();
    });
    this.inFlight.add(tracked);
  }

  /** Stops claiming; waits up to `loopWaitMs` for the step under way. */
  async stop(loopWaitMs: number): Promise<void> {
    this.stopping = true;
    this.nudge();
    await withinTime(this.loop ?? Promise.resolve(), loopWaitMs);
  }

  /** Waits up to `ms` for the work in flight to end. */
  async drain(ms: number): Promise<void> {
    if (this.inFlight.size > 0) await withinTime(Promise.allSettled([...this.inFlight]), ms);
  }

  /** After stopping: steps again (without claiming) while `workLeftAtStop` holds, for up to `ms`. */
  async finalSteps(ms: number): Promise<void> {
    if (!this.options.workLeftAtStop?.()) return;
    this.loop = (this.loop ?? Promise.resolve()).then(() => this.run());
    await withinTime(this.loop, ms);
  }

  private async run(): Promise<void> {
    while (!this.stopping || (this.options.workLeftAtStop?.() ?? false)) {
      const outcome = await this.options.step();
      if (outcome === 'idle') await this.pause(this.options.idlePollMs);
      else if (outcome === 'failed') await this.pause(this.options.errorPauseMs);
      else if (outcome !== 'more') await this.pause(outcome.retryInMs);
    }
  }

  private pause(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }
}

async function withinTime(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}
