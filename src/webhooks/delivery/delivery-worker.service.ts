import { Inject, Injectable, Logger } from '@nestjs/common';
import { setMaxListeners } from 'node:events';
import { CLOCK, type Clock } from '../../common/time/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { WebhookEventId } from '../../common/ids/resource-ids';
import { ClaimLoop, type StepOutcome } from '../../infra/jobs/claim-loop';
import { JobRunner } from '../../infra/jobs/job-runner.service';
import { QueueMetrics } from '../../infra/observability/queue-metrics';
import { QrCodeEvents } from '../../qrcodes/qr-code-events';
import { RecentEventBodies } from '../recent-event-bodies';
import { type AttemptRecord, type ClaimedDelivery, DELIVERY_QUEUE, DeliveryQueueRepository, DISABLE_AFTER_MS } from './delivery-queue.repository';
import { outcomeOf } from './retry-schedule';
import { SigningSecrets } from './signing-secrets';
import { signatureHeader } from './signing';
import { type SendResult, WebhookSender } from './webhook-sender';

/** Attempts in flight on this instance at once (the queue's batch: a claim fills the free ones). */
const INSTANCE_CONCURRENCY = DELIVERY_QUEUE.batch;
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How often an idle worker looks for due deliveries (another instance's events, retries coming due). */
const IDLE_POLL_MS = 250;
const ERROR_PAUSE_MS = 2000;
const QUEUE = DELIVERY_QUEUE.name;
/** Attempts whose record failed this many times in a row are dropped (see keepUnrecorded). */
const MAX_RECORD_TRIES = 10;

/**
 * Delivers the outbox. Any number of instances run one. Each step is one short transaction
 * (DeliveryQueueRepository.cycle) that records the attempts finished since the last step and
 * claims due deliveries into the slots that frees (endpoints locked with SKIP LOCKED, per-endpoint
 * concurrency counted from leases); the posts happen outside any transaction. A step runs
 * whenever an attempt finishes, so a slow endpoint holds up only its own deliveries. It runs beside
 * the redirect host but never in its path: scans only append to the scan buffer, whose store writes
 * the events.
 */
@Injectable()
export class DeliveryWorker {
  private readonly logger = new Logger('Webhooks');
  private readonly sender: WebhookSender;
  private finished: AttemptRecord[] = [];
  private recordFailures = 0;
  private readonly loop = new ClaimLoop({
    step: () => this.step(),
    idlePollMs: IDLE_POLL_MS,
    errorPauseMs: ERROR_PAUSE_MS,
    // What finished before the stop is recorded with last steps that claim nothing.
    workLeftAtStop: () => this.finished.length > 0,
  });
  private readonly abort = new AbortController();
  private readonly knownBody = (eventId: WebhookEventId) => this.recentBodies.get(eventId);

  constructor(
    private readonly queue: DeliveryQueueRepository,
    private readonly secrets: SigningSecrets,
    private readonly recentBodies: RecentEventBodies,
    private readonly codeEvents: QrCodeEvents,
    private readonly metrics: QueueMetrics,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
    runner: JobRunner,
  ) {
    this.sender = new WebhookSender({ allowPrivate: config.webhooks.allowPrivate, timeoutMs: DELIVERY_TIMEOUT_MS });
    // Every attempt in flight listens for the shutdown's abort: up to INSTANCE_CONCURRENCY at once is expected, not a leak.
    setMaxListeners(INSTANCE_CONCURRENCY + 1, this.abort.signal);
    runner.queue({
      queue: queue.leased,
      start: () => {
        this.codeEvents.onCommitted(() => this.nudge());
        this.loop.start();
      },
      stop: (graceMs) => this.stop(graceMs),
    });
  }

  /** Looks for due deliveries now rather than at the next poll (after this instance wrote some). */
  nudge(): void {
    this.loop.nudge();
  }

  /** Stops claiming; attempts in flight get `graceMs`, then are aborted (and retried later), and what finished is recorded. */
  private async stop(graceMs: number): Promise<void> {
    await this.loop.stop(Math.min(graceMs, 2000));
    if (this.loop.running > 0) {
      await this.loop.drain(graceMs);
      this.abort.abort();
      await this.loop.drain(1000);
    }
    // Bounded, whatever the database does.
    await this.loop.finalSteps(2000);
    this.sender.close();
  }

  private async step(): Promise<StepOutcome> {
    const finished = this.finished;
    this.finished = [];
    const now = this.clock.now();
    const free = INSTANCE_CONCURRENCY - this.loop.running;
    const claim = this.loop.stopRequested || free <= 0 ? null : { limit: free, knownBody: this.knownBody };
    let claimed: number;
    try {
      const result = await this.queue.cycle(finished, now, claim, DISABLE_AFTER_MS);
      this.recordFailures = 0;
      for (const id of result.disabled) this.logger.warn(`Webhook endpoint ${id} disabled: its deliveries failed for 5 days`);
      this.countOutcomes(finished);
      for (const delivery of result.deliveries) this.loop.track(this.attempt(result.token!, delivery));
      claimed = result.deliveries.length;
    } catch (error) {
      this.keepUnrecorded(finished, error as Error);
      return 'failed';
    }
    if (this.loop.stopRequested) return 'more';
    // Claimed something: there may be more. Otherwise wait for an attempt to finish (its slot frees), a nudge or the poll.
    return this.finished.length === 0 && (claimed === 0 || this.loop.running >= INSTANCE_CONCURRENCY) ? 'idle' : 'more';
  }

  /** Attempts whose record failed are recorded with the next step; after MAX_RECORD_TRIES failures in a row they are dropped. */
  private keepUnrecorded(finished: AttemptRecord[], error: Error): void {
    this.recordFailures++;
    if (this.recordFailures >= MAX_RECORD_TRIES) {
      // Their leases run out and the deliveries are attempted again: nothing is lost, an attempt is repeated.
      this.logger.error(`${finished.length} webhook attempts dropped unrecorded after ${MAX_RECORD_TRIES} tries: ${error.message}`);
      this.recordFailures = 0;
      return;
    }
    this.logger.warn(`Webhook deliveries not claimed or recorded this time: ${error.message}`);
    this.finished.unshift(...finished);
  }

  private async attempt(token: string, delivery: ClaimedDelivery): Promise<void> {
    const attemptedAt = this.clock.now();
    let result: SendResult;
    try {
      const secrets = await this.signingSecrets(delivery, attemptedAt);
      // Encoded once, for the signature and the post both.
      const payload = Buffer.from(delivery.body);
      const headers = {
        'webhook-id': delivery.eventId,
        'webhook-timestamp': String(Math.floor(attemptedAt.getTime() / 1000)),
        'webhook-signature': signatureHeader(secrets, delivery.eventId, attemptedAt, payload),
      };
      result = await this.sender.send(delivery.url, headers, payload, this.abort.signal);
    } catch (error) {
      result = {
        statusCode: null,
        error: `refused: the signing secret cannot be read (${(error as Error).message}); was WEBHOOK_SECRETS_KEY changed?`,
        refused: true,
        durationMs: 0,
        snippet: null,
      };
    }
    if (result.refused) this.logger.warn(`Webhook delivery ${delivery.id} (endpoint ${delivery.endpointId}) ${result.error}`);
    const number = delivery.scheduleAttempts + 1;
    const outcome = outcomeOf(result, number);
    this.finished.push({
      leaseToken: token,
      deliveryId: delivery.id,
      accountId: delivery.accountId,
      endpointId: delivery.endpointId,
      attemptedAt,
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
      snippet: result.snippet,
      outcome: outcome.outcome,
      nextAttemptAt: outcome.outcome === 'retrying' ? new Date(attemptedAt.getTime() + outcome.retryInMs) : null,
      scheduleAttempts: number,
    });
  }

  private async signingSecrets(delivery: ClaimedDelivery, now: Date): Promise<string[]> {
    const current = await this.secrets.open(delivery.secretCiphertext, delivery.endpointId);
    const previousLive = delivery.previousSecretCiphertext && delivery.previousSecretExpiresAt && delivery.previousSecretExpiresAt > now;
    return previousLive ? [current, await this.secrets.open(delivery.previousSecretCiphertext!, delivery.endpointId)] : [current];
  }

  private countOutcomes(recorded: AttemptRecord[]): void {
    const retried = recorded.filter((attempt) => attempt.outcome === 'retrying').length;
    const failed = recorded.filter((attempt) => attempt.outcome === 'failed').length;
    if (retried > 0) this.metrics.retried(QUEUE, retried);
    if (failed > 0) this.metrics.jobFailed(QUEUE, failed);
  }
}
