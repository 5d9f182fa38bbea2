import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/time/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MetricsService } from '../observability/metrics.service';

/** After a failed statement, ClickHouse is not read for this long (unless a statement succeeds first). */
const UNAVAILABLE_FOR_MS = 10_000;
/** A lag measured longer ago than this is not trusted (the export worker measures it about every second). */
const LAG_FRESH_FOR_MS = 15_000;
/**
 * After this instance queued an erasure, ClickHouse is not read for this long whatever the last
 * measurement said: a measurement begun before the erasure committed may still report none.
 */
const ERASURE_QUEUED_HOLD_MS = 5_000;

/** Why analytics read PostgreSQL instead of ClickHouse, or `ready`. */
export type ClickHouseReadiness = 'ready' | 'not_configured' | 'lag_unknown' | 'lagging' | 'unavailable' | 'erasure_pending';

/**
 * What this instance knows of ClickHouse: how far its export is behind PostgreSQL (measured by the
 * export worker from the shared outbox, so every instance sees the same lag), and whether its last
 * statement failed. Analytics ask `readiness` before reading it; /metrics shows the same figures.
 */
@Injectable()
export class ClickHouseStatus {
  private lag: { seconds: number; measuredAt: number } | null = null;
  private failedAt = Number.NEGATIVE_INFINITY;
  /** Erasures ClickHouse has not applied yet, as last measured from the shared outbox (so every instance sees them). */
  private pendingErasures = 0;
  private erasureQueuedAt = Number.NEGATIVE_INFINITY;
  private readonly maxLagSeconds: number;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly metrics: MetricsService,
  ) {
    this.maxLagSeconds = config.clickhouse?.maxLagSeconds ?? 0;
  }

  /** The export's lag: the age of the oldest batch not yet exported, and how many wait. */
  exportLagMeasured(seconds: number, pendingBatches: number): void {
    this.lag = { seconds, measuredAt: this.clock.now().getTime() };
    this.metrics.clickhouseExportLag.set(seconds);
    this.metrics.clickhouseExportPending.set(pendingBatches);
  }

  /** How many erasures wait for ClickHouse (measured with the lag): while any does, ClickHouse still holds scans PostgreSQL no longer has. */
  erasuresMeasured(pending: number): void {
    this.pendingErasures = pending;
    this.metrics.clickhouseErasuresPending.set(pending);
  }

  /** This instance has just queued an erasure: not read until the measurements see it. */
  erasureQueued(): void {
    this.erasureQueuedAt = this.clock.now().getTime();
  }

  /** Runs a ClickHouse statement: its outcome is what the instance knows of ClickHouse's health. */
  async track<T>(statement: () => Promise<T>): Promise<T> {
    try {
      const result = await statement();
      this.succeeded();
      return result;
    } catch (error) {
      this.failed();
      throw error;
    }
  }

  succeeded(): void {
    this.failedAt = Number.NEGATIVE_INFINITY;
    this.metrics.clickhouseUp.set(1);
  }

  failed(): void {
    this.failedAt = this.clock.now().getTime();
    this.metrics.clickhouseUp.set(0);
  }

  readiness(): ClickHouseReadiness {
    if (!this.config.clickhouse) return 'not_configured';
    const now = this.clock.now().getTime();
    if (now - this.failedAt < UNAVAILABLE_FOR_MS) return 'unavailable';
    if (!this.lag || now - this.lag.measuredAt > LAG_FRESH_FOR_MS) return 'lag_unknown';
    if (this.pendingErasures > 0 || now - this.erasureQueuedAt < ERASURE_QUEUED_HOLD_MS) return 'erasure_pending';
    return this.lag.seconds <= this.maxLagSeconds ? 'ready' : 'lagging';
  }
}
