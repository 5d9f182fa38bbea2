import { Injectable, Logger } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { type ClickHouseReadiness, ClickHouseStatus } from '../infra/clickhouse/clickhouse-status';
import { MetricsService } from '../infra/observability/metrics.service';
import { ClickHouseScanEventsRepository } from './clickhouse/clickhouse-scan-events.repository';
import type { ScanAnalyticsReader } from './scan-analytics-reader';
import type { AccountScanAggregates, AccountScanFilter, ScanAggregates } from './scan-aggregates';
import { ScanAnalyticsRepository } from './scan-analytics.repository';
import type { ScanWindow } from './scan-range';

/**
 * Chooses the engine of each analytics read (docs/clickhouse.md): ClickHouse when it is configured,
 * answered its last statement and its export is at most CLICKHOUSE_MAX_LAG_SECONDS behind;
 * PostgreSQL otherwise, and whenever ClickHouse fails or garbles an answer (a warning is logged, the
 * request never fails for it). Falling back is logged when the reason changes, not per request.
 */
@Injectable()
export class ScanAnalyticsEngines implements ScanAnalyticsReader {
  private readonly logger = new Logger('ScanAnalytics');
  private lastReason: ClickHouseReadiness = 'ready';

  constructor(
    private readonly postgres: ScanAnalyticsRepository,
    private readonly clickhouse: ClickHouseScanEventsRepository,
    private readonly status: ClickHouseStatus,
    private readonly metrics: MetricsService,
  ) {}

  async aggregate(accountId: AccountId, codeId: QrCodeId, window: ScanWindow): Promise<ScanAggregates | null> {
    const readiness = this.status.readiness();
    if (readiness === 'ready' && window.timeZone === 'UTC' && window.interval !== 'month') {
      try {
        const answer = await this.clickhouse.aggregate(accountId, codeId, window);
        this.lastReason = 'ready';
        this.metrics.scanAnalyticsReads.inc({ engine: 'clickhouse' });
        return answer;
      } catch (error) {
        this.status.failed();
        this.logger.warn(
          `Scan analytics answered from PostgreSQL: ClickHouse failed the query (${(error as Error).message.split('\n')[0].slice(0, 300)})`,
        );
        this.lastReason = 'unavailable';
      }
    } else if (readiness !== 'not_configured' && readiness !== this.lastReason) {
      this.logger.warn(`Scan analytics read PostgreSQL: ClickHouse is ${readiness.replace('_', ' ')}`);
      this.lastReason = readiness;
    }
    const answer = await this.postgres.aggregate(accountId, codeId, window);
    this.metrics.scanAnalyticsReads.inc({ engine: 'postgresql' });
    return answer;
  }

  async accountAggregate(accountId: AccountId, filter: AccountScanFilter, window: ScanWindow): Promise<AccountScanAggregates> {
    const answer = await this.postgres.accountAggregate(accountId, filter, window);
    this.metrics.scanAnalyticsReads.inc({ engine: 'postgresql' });
    return answer;
  }
}
