import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/time/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MetricsService } from '../observability/metrics.service';

/** After a failed statement, ClickHouse is not read for this long (unless a statement succeeds first). */
const UNAVAILABLE_FOR_MS = 10_000;
/** A lag measured longer ago than this is not trusted (the export worker measures it about every second). */
const LAG_FRESH_FOR_MS = 15_000;

/** Why analytics read PostgreSQL instead of ClickHouse, or `ready`. */
export type ClickHouseReadiness = 'ready' | 'not_configured' | 'lag_unknown' | 'lagging' | 'unavailable';

/**
 * What this instance knows of ClickHouse: how far its export is behind PostgreSQL (measured by the
 * export worker from the shared outbox, so every instance sees the same lag), and whether its last
 * statement failed. Analytics ask `readiness` before reading it; /metrics shows the same figures.
 */
@Injectable()
export class ClickHouseStatus {
  private lag: { seconds: number; measuredAt: number } | null = null;
  private failedAt = Number.NEGATIVE_INFINITY;
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
    return this.lag.seconds <= this.maxLagSeconds ? 'ready' : 'lagging';
  }
}
