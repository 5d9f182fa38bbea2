import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { CLOCK, type Clock } from '../../common/time/clock';
import { ClickHouseConnection } from '../../infra/clickhouse/clickhouse-connection';
import { ClickHouseStatus } from '../../infra/clickhouse/clickhouse-status';
import { ClaimLoop, type StepOutcome } from '../../infra/jobs/claim-loop';
import { JobRunner } from '../../infra/jobs/job-runner.service';
import { retryDelayMs } from '../../infra/jobs/retry-policy';
import { MetricsService } from '../../infra/observability/metrics.service';
import { StoredScanListeners } from '../../scans/stored-scans';
import {
  CLICKHOUSE_EXPORT_QUEUE,
  CLICKHOUSE_RETRY,
  type ClaimedExport,
  ClickHouseExportOutboxRepository,
  type ExportedScan,
} from './clickhouse-export-outbox.repository';
import { ClickHouseScanEventsRepository } from './clickhouse-scan-events.repository';
import { OutageLog } from './outage-log';

/** How often an idle worker looks for batches (this instance's and the others'). */
const IDLE_POLL_MS = 500;
/** The lag is measured at most this often (it answers /metrics and the choice of engine). */
const LAG_EVERY_MS = 1000;

/**
 * Writes stored scan batches to ClickHouse (docs/clickhouse.md): the queue `clickhouse-export` of
 * the job runner. The outbox gets a row per batch in the batch's own transaction (a
 * StoredScanListeners listener), so what PostgreSQL committed is what is exported, and nothing else.
 * Each step claims due batches (the runner's one claim), reads their rows back from scan_events,
 * writes them in one INSERT and deletes the batches from the outbox. A failed step leaves its
 * batches for later (the retry policy, forever: nothing is dropped); a batch claimed a second time
 * is first looked for in ClickHouse, and only its missing rows are written, so a crash between the
 * INSERT and the outbox's delete, a lost answer or a restart writes no scan twice.
 */
@Injectable()
export class ClickHouseExportWorker implements OnModuleInit {
  private readonly loop = new ClaimLoop({ step: () => this.step(), idlePollMs: IDLE_POLL_MS, errorPauseMs: retryDelayMs(CLICKHOUSE_RETRY, 1) });
  private readonly outage = new OutageLog(new Logger('ClickHouse'), 'export');
  private lagMeasuredAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly connection: ClickHouseConnection,
    private readonly outbox: ClickHouseExportOutboxRepository,
    private readonly events: ClickHouseScanEventsRepository,
    private readonly status: ClickHouseStatus,
    private readonly storedScans: StoredScanListeners,
    private readonly metrics: MetricsService,
    @Inject(CLOCK) private readonly clock: Clock,
    runner: JobRunner,
  ) {
    runner.queue({
      queue: outbox.leased,
      enabled: () => connection.configured,
      start: () => this.loop.start(),
      // A step cut short leaves its batches leased: they are claimed again when the lease ends, and looked for in ClickHouse first.
      stop: (graceMs) => this.loop.stop(graceMs),
    });
  }

  /** The outbox is written wherever scans are stored (every role that serves the redirect host). */
  onModuleInit(): void {
    if (!this.connection.configured) return;
    this.storedScans.inTransaction((tx, stored) => this.outbox.record(tx, stored.rowKeys()));
  }

  private async step(): Promise<StepOutcome> {
    try {
      await this.measureLag();
      await this.status.track(() => this.connection.ensureSchema());
      const exported = await this.exportBatches();
      this.outage.recovered();
      return exported > 0 ? 'more' : 'idle';
    } catch (error) {
      this.outage.failing((error as Error).message);
      return { retryInMs: (error as ExportFailure).retryInMs ?? retryDelayMs(CLICKHOUSE_RETRY, 1) };
    }
  }

  /** One claim, read, write and delete; the number of batches it exported. */
  private async exportBatches(): Promise<number> {
    const { token, batches } = await this.outbox.claim(this.clock.now());
    if (batches.length === 0) return 0;
    const started = performance.now();
    const ids = batches.map((batch) => batch.batchId);
    try {
      const scans = await this.outbox.rowsOf(ids);
      const written = await this.writeMissing(batches, scans);
      // Another instance may have claimed the batches since: two writers of one batch could both find it missing and both write it.
      if (performance.now() - started > CLICKHOUSE_EXPORT_QUEUE.leaseMs / 2)
        throw new Error('an export step outlived half its lease; its batches wait for the lease to end');
      await this.status.track(() => this.events.insert(written));
      this.metrics.clickhouseExportedScans.inc(written.length);
    } catch (error) {
      const retryInMs = retryDelayMs(CLICKHOUSE_RETRY, Math.max(...batches.map((batch) => batch.attempts)));
      await this.outbox
        .postpone(ids, token, new Date(this.clock.now().getTime() + retryInMs), (error as Error).message)
        .catch((postponeError: Error) => {
          // The lease ends on its own: the batches are claimed again then.
          this.outage.debug(`Failed ClickHouse export batches not postponed (their lease will end): ${postponeError.message}`);
        });
      throw Object.assign(error as Error, { retryInMs } satisfies ExportFailure);
    }
    await this.outbox.finish(ids, token);
    this.lagMeasuredAt = Number.NEGATIVE_INFINITY;
    return batches.length;
  }

  /** The scans to write: all of them on a first claim; on a later one, those ClickHouse does not hold yet. */
  private async writeMissing(claimed: ClaimedExport[], scans: ExportedScan[]): Promise<ExportedScan[]> {
    const again = new Set(claimed.filter((batch) => batch.attempts > 1).map((batch) => batch.batchId));
    const retried = scans.filter((scan) => again.has(scan.batchId));
    if (retried.length === 0) return scans;
    const written = await this.status.track(() => this.events.alreadyWritten(retried));
    return written.size === 0 ? scans : scans.filter((scan) => !written.has(scan.eventId));
  }

  private async measureLag(): Promise<void> {
    const now = performance.now();
    if (now - this.lagMeasuredAt < LAG_EVERY_MS) return;
    this.lagMeasuredAt = now;
    const lag = await this.outbox.lag();
    this.status.exportLagMeasured(lag.seconds, lag.pending);
  }
}

interface ExportFailure {
  retryInMs?: number;
}
