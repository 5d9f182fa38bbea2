import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { CLOCK, type Clock } from '../../common/time/clock';
import { ClickHouseConnection } from '../../infra/clickhouse/clickhouse-connection';
import { clickHouseSchema } from '../../infra/clickhouse/clickhouse-schema';
import { ClickHouseStatus } from '../../infra/clickhouse/clickhouse-status';
import { ClaimLoop, type StepOutcome } from '../../infra/jobs/claim-loop';
import { JobRunner } from '../../infra/jobs/job-runner.service';
import { leaseUntil } from '../../infra/jobs/lease';
import { MetricsService } from '../../infra/observability/metrics.service';
import { StoredScanListeners } from '../../scans/stored-scans';
import { type ClaimedErasure, ClickHouseErasureOutboxRepository } from './clickhouse-erasure-outbox.repository';
import { type ClaimedExport, ClickHouseExportOutboxRepository, type ExportedScan } from './clickhouse-export-outbox.repository';
import { ClickHouseScanErasuresRepository } from './clickhouse-scan-erasures.repository';
import { ClickHouseScanEventsRepository } from './clickhouse-scan-events.repository';
import { exportRetryDelayMs } from './export-retry';

/** Batches claimed per step: one PostgreSQL read and one ClickHouse INSERT for all of them (ClickHouse wants few, large inserts). */
const BATCHES_PER_STEP = 200;
/** Erasures claimed per step (each is a mutation or a look at one: few, and rare). */
const ERASURES_PER_STEP = 20;
/** How soon an erasure waiting for ClickHouse's mutation, or for a batch of its code to be exported first, is looked at again. */
const ERASURE_WAIT_MS = 500;
/**
 * How long a claim holds its batches. A step that took more than half of it (a stalled process)
 * writes nothing: another instance may have claimed the batches since, and two writers of one
 * batch could both find it missing in ClickHouse and both write it. The insert's own timeout
 * (30 s) is far shorter.
 */
const LEASE_MS = 5 * 60_000;
/** How often an idle worker looks for batches (this instance's and the others'). */
const IDLE_POLL_MS = 500;
/** The lag is measured at most this often (it answers /metrics and the choice of engine). */
const LAG_EVERY_MS = 1000;

/**
 * Writes stored scan batches to ClickHouse (docs/clickhouse.md). The outbox gets a row per batch
 * in the batch's own transaction (a StoredScanListeners listener), so what PostgreSQL committed is
 * what is exported, and nothing else. Every instance runs a worker; each step claims due batches
 * (SKIP LOCKED, under a lease; the loop is the jobs' ClaimLoop), reads their rows back from scan_events, writes them in one INSERT and deletes the
 * batches from the outbox. A failed step leaves its batches for later (backoff per batch, forever:
 * nothing is dropped); a batch claimed a second time is first looked for in ClickHouse, and only
 * its missing rows are written, so a crash between the INSERT and the outbox's delete, a lost answer
 * or a restart writes no scan twice. After each export step it applies the erasures queued in
 * clickhouse_erasures (eraseStep).
 */
@Injectable()
export class ClickHouseExportWorker implements OnModuleInit {
  private readonly logger = new Logger('ClickHouse');
  private readonly loop = new ClaimLoop({ step: () => this.exportStep(), idlePollMs: IDLE_POLL_MS, errorPauseMs: exportRetryDelayMs(1) });
  private schemaReady = false;
  private lagMeasuredAt = Number.NEGATIVE_INFINITY;
  /** The failure being reported (logged once when it starts, once when it ends), or null. */
  private outage: string | null = null;

  constructor(
    private readonly connection: ClickHouseConnection,
    private readonly outbox: ClickHouseExportOutboxRepository,
    private readonly events: ClickHouseScanEventsRepository,
    private readonly erasures: ClickHouseErasureOutboxRepository,
    private readonly erasing: ClickHouseScanErasuresRepository,
    private readonly status: ClickHouseStatus,
    private readonly storedScans: StoredScanListeners,
    private readonly metrics: MetricsService,
    @Inject(CLOCK) private readonly clock: Clock,
    runner: JobRunner,
  ) {
    const enabled = () => connection.configured;
    runner.queue({
      name: 'clickhouse-export',
      enabled,
      start: () => this.loop.start(),
      // A step cut short leaves its batches leased: they are claimed again when the lease ends, and looked for in ClickHouse first.
      stop: (graceMs) => this.loop.stop(graceMs),
      depth: (now) => outbox.depth(now),
    });
    // Worked by the export's own loop, after each export step (eraseStep); registered for what it holds.
    runner.queue({ name: 'clickhouse-erasures', enabled, start: () => undefined, stop: async () => undefined, depth: (now) => erasures.depth(now) });
  }

  /** The outbox is written wherever scans are stored (every role that serves the redirect host). */
  onModuleInit(): void {
    if (!this.connection.configured) return;
    this.storedScans.inTransaction((tx, stored) => this.outbox.record(tx, stored.rowKeys()));
  }

  private async exportStep(): Promise<StepOutcome> {
    try {
      await this.measureLag();
      if (!this.schemaReady) await this.createSchema();
      const exported = await this.step();
      const erased = await this.eraseStep();
      this.recovered();
      return exported > 0 || erased > 0 ? 'more' : 'idle';
    } catch (error) {
      this.failing((error as Error).message);
      return { retryInMs: (error as ExportFailure).retryInMs ?? exportRetryDelayMs(1) };
    }
  }

  /** One claim, read, write and delete; the number of batches it exported. */
  private async step(): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.outbox.claim(now, leaseUntil(now, LEASE_MS), BATCHES_PER_STEP);
    if (claimed.length === 0) return 0;
    const started = performance.now();
    const ids = claimed.map((batch) => batch.batchId);
    try {
      const scans = await this.outbox.rowsOf(ids);
      const written = await this.writeMissing(claimed, scans);
      if (performance.now() - started > LEASE_MS / 2)
        throw new Error('an export step outlived half its lease; its batches wait for the lease to end');
      await this.clickhouse(() => this.events.insert(written));
      this.metrics.clickhouseExportedScans.inc(written.length);
    } catch (error) {
      const retryInMs = exportRetryDelayMs(Math.max(...claimed.map((batch) => batch.claims)));
      await this.outbox.postpone(ids, new Date(this.clock.now().getTime() + retryInMs), (error as Error).message).catch((postponeError: Error) => {
        // The lease ends on its own: the batches are claimed again then.
        this.logger.debug(`Failed ClickHouse export batches not postponed (their lease will end): ${postponeError.message}`);
      });
      throw Object.assign(error as Error, { retryInMs } satisfies ExportFailure);
    }
    await this.outbox.finish(ids);
    this.lagMeasuredAt = Number.NEGATIVE_INFINITY;
    return claimed.length;
  }

  /**
   * Applies queued erasures (docs/clickhouse.md#erasure): each waits until the batches
   * stored before it holding its code's scans from before its cut are exported (one may have read its
   * rows before the erasure in PostgreSQL and would write them after the mutation), then issues the
   * mutation once (the code's later batches of such scans wait for that: see the outbox's claim), then
   * waits until ClickHouse lists it done, and only then leaves the outbox. A failure
   * postpones it with the export's backoff, forever. The number of erasures finished.
   */
  private async eraseStep(): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.erasures.claim(now, leaseUntil(now, LEASE_MS), ERASURES_PER_STEP);
    let finished = 0;
    let failure: Error | null = null;
    for (const erasure of claimed) {
      try {
        if (await this.advance(erasure)) finished++;
      } catch (error) {
        failure ??= error as Error;
        const retryInMs = exportRetryDelayMs(erasure.claims);
        await this.erasures
          .postpone(erasure.id, new Date(this.clock.now().getTime() + retryInMs), (error as Error).message)
          .catch((postponeError: Error) => {
            this.logger.debug(`Failed ClickHouse erasure not postponed (its lease will end): ${postponeError.message}`);
          });
      }
    }
    if (finished > 0) this.lagMeasuredAt = Number.NEGATIVE_INFINITY;
    if (failure) throw failure;
    return finished;
  }

  /** One step of one erasure; whether it is done. */
  private async advance(erasure: ClaimedErasure): Promise<boolean> {
    const later = () => new Date(this.clock.now().getTime() + ERASURE_WAIT_MS);
    if (!erasure.issued) {
      if (await this.erasures.exportPendingFor(erasure.id)) {
        await this.erasures.postpone(erasure.id, later(), null);
        return false;
      }
      await this.clickhouse(() => this.erasing.erase(erasure.codeId, erasure.before));
      await this.erasures.issued(erasure.id, this.clock.now());
    }
    if (await this.clickhouse(() => this.erasing.erasing(erasure.codeId))) {
      await this.erasures.postpone(erasure.id, later(), null);
      return false;
    }
    await this.erasures.finish(erasure.id);
    return true;
  }

  /** The scans to write: all of them on a first claim; on a later one, those ClickHouse does not hold yet. */
  private async writeMissing(claimed: ClaimedExport[], scans: ExportedScan[]): Promise<ExportedScan[]> {
    const again = new Set(claimed.filter((batch) => batch.claims > 1).map((batch) => batch.batchId));
    const retried = scans.filter((scan) => again.has(scan.batchId));
    if (retried.length === 0) return scans;
    const written = await this.clickhouse(() => this.events.alreadyWritten(retried));
    return written.size === 0 ? scans : scans.filter((scan) => !written.has(scan.eventId));
  }

  private async createSchema(): Promise<void> {
    for (const statement of clickHouseSchema(this.connection.database)) await this.clickhouse(() => this.connection.command(statement));
    this.schemaReady = true;
  }

  private async measureLag(): Promise<void> {
    const now = performance.now();
    if (now - this.lagMeasuredAt < LAG_EVERY_MS) return;
    this.lagMeasuredAt = now;
    const [lag, erasures] = await Promise.all([this.outbox.lag(), this.erasures.pending()]);
    this.status.erasuresMeasured(erasures);
    this.status.exportLagMeasured(lag.seconds, lag.pending);
  }

  /** A ClickHouse statement: its outcome is what the instance knows of ClickHouse's health. */
  private async clickhouse<T>(work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      this.status.succeeded();
      return result;
    } catch (error) {
      this.status.failed();
      throw error;
    }
  }

  private failing(message: string): void {
    if (this.outage === null)
      this.logger.warn(`ClickHouse export failing, retrying with backoff (nothing is lost; analytics read PostgreSQL while it lags): ${message}`);
    this.outage = message;
  }

  private recovered(): void {
    if (this.outage === null) return;
    this.logger.log('ClickHouse export resumed');
    this.outage = null;
  }
}

interface ExportFailure {
  retryInMs?: number;
}
