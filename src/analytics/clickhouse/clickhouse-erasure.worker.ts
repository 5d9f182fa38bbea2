import { Inject, Injectable, Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { CLOCK, type Clock } from '../../common/time/clock';
import { ClickHouseConnection } from '../../infra/clickhouse/clickhouse-connection';
import { ClickHouseStatus } from '../../infra/clickhouse/clickhouse-status';
import { ClaimLoop, type StepOutcome } from '../../infra/jobs/claim-loop';
import { JobRunner } from '../../infra/jobs/job-runner.service';
import { retryDelayMs } from '../../infra/jobs/retry-policy';
import { type ClaimedErasure, ClickHouseErasureOutboxRepository } from './clickhouse-erasure-outbox.repository';
import { CLICKHOUSE_RETRY } from './clickhouse-export-outbox.repository';
import { ClickHouseScanErasuresRepository } from './clickhouse-scan-erasures.repository';
import { OutageLog } from './outage-log';

/** How soon an erasure waiting for ClickHouse's mutation, or for a batch of its code to be exported first, is looked at again. */
const ERASURE_WAIT_MS = 500;
const IDLE_POLL_MS = 500;
/** The erasures waiting are counted at most this often (while any does, analytics read PostgreSQL). */
const MEASURE_EVERY_MS = 1000;

/**
 * Applies the erasures queued in clickhouse_erasures (docs/clickhouse.md#erasure): the queue
 * `clickhouse-erasures` of the job runner. Each erasure waits until the batches stored before it
 * holding its code's scans from before its cut are exported (one may have read its rows before the
 * erasure in PostgreSQL and would write them after the mutation), then issues the mutation once
 * (the code's later batches of such scans wait for that: see the export outbox's claim), then waits
 * until ClickHouse lists it done, and only then leaves the outbox. A failure postpones it with the
 * export's retry policy, forever.
 */
@Injectable()
export class ClickHouseErasureWorker {
  private readonly loop = new ClaimLoop({ step: () => this.step(), idlePollMs: IDLE_POLL_MS, errorPauseMs: retryDelayMs(CLICKHOUSE_RETRY, 1) });
  private readonly outage = new OutageLog(new Logger('ClickHouse'), 'erasures');
  private measuredAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly connection: ClickHouseConnection,
    private readonly erasures: ClickHouseErasureOutboxRepository,
    private readonly erasing: ClickHouseScanErasuresRepository,
    private readonly status: ClickHouseStatus,
    @Inject(CLOCK) private readonly clock: Clock,
    runner: JobRunner,
  ) {
    runner.queue({
      queue: erasures.leased,
      enabled: () => connection.configured,
      start: () => this.loop.start(),
      stop: (graceMs) => this.loop.stop(graceMs),
    });
  }

  private async step(): Promise<StepOutcome> {
    try {
      await this.status.track(() => this.connection.ensureSchema());
      const finished = await this.advanceClaimed();
      this.outage.recovered();
      return finished > 0 ? 'more' : 'idle';
    } catch (error) {
      this.outage.failing((error as Error).message);
      return 'failed';
    } finally {
      await this.measure().catch((error: Error) => this.outage.debug(`Erasures waiting not counted this time: ${error.message}`));
    }
  }

  /** One step of each erasure claimed; the number finished. Throws the first failure, after postponing each failed erasure. */
  private async advanceClaimed(): Promise<number> {
    const { token, erasures } = await this.erasures.claim(this.clock.now());
    // Counted again after this step: an erasure claimed (or finished) changes what analytics may read.
    if (erasures.length > 0) this.measuredAt = Number.NEGATIVE_INFINITY;
    let finished = 0;
    let failure: Error | null = null;
    for (const erasure of erasures) {
      try {
        if (await this.advance(erasure, token)) finished++;
      } catch (error) {
        failure ??= error as Error;
        const at = new Date(this.clock.now().getTime() + retryDelayMs(CLICKHOUSE_RETRY, erasure.attempts));
        await this.erasures.postpone(erasure.id, token, at, (error as Error).message).catch((postponeError: Error) => {
          this.outage.debug(`Failed ClickHouse erasure not postponed (its lease will end): ${postponeError.message}`);
        });
      }
    }
    if (failure) throw failure;
    return finished;
  }

  /** One step of one erasure; whether it is done. */
  private async advance(erasure: ClaimedErasure, token: string): Promise<boolean> {
    const later = () => new Date(this.clock.now().getTime() + ERASURE_WAIT_MS);
    if (!erasure.issued) {
      if (await this.erasures.exportPendingFor(erasure.id)) {
        await this.erasures.postpone(erasure.id, token, later(), null);
        return false;
      }
      await this.status.track(() => this.erasing.erase(erasure.codeId, erasure.before));
      await this.erasures.issued(erasure.id, this.clock.now());
    }
    if (await this.status.track(() => this.erasing.erasing(erasure.codeId))) {
      await this.erasures.postpone(erasure.id, token, later(), null);
      return false;
    }
    await this.erasures.finish(erasure.id, token);
    return true;
  }

  private async measure(): Promise<void> {
    const now = performance.now();
    if (now - this.measuredAt < MEASURE_EVERY_MS) return;
    this.measuredAt = now;
    this.status.erasuresMeasured(await this.erasures.pending());
  }
}
