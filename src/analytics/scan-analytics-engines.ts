import { Injectable, Logger } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { type ClickHouseReadiness, ClickHouseStatus } from '../infra/clickhouse/clickhouse-status';
import { MetricsService } from '../infra/observability/metrics.service';
import { ClickHouseScanEventsRepository } from './clickhouse/clickhouse-scan-events.repository';
import { ClickHouseDeclined } from './clickhouse/scan-buckets';
import type { ScanAnalyticsReader } from './scan-analytics-reader';
import type { AccountScanAggregates, AccountScanFilter, ScanAggregates } from './scan-aggregates';
import { ScanAnalyticsRepository } from './scan-analytics.repository';
import type { ScanWindow } from './scan-range';

/**
 * Chooses the engine of each analytics read (docs/clickhouse.md): ClickHouse when it is configured,
 * answered its last statement and its export is at most CLICKHOUSE_MAX_LAG_SECONDS behind;
 * PostgreSQL otherwise, whenever ClickHouse fails or garbles an answer (a warning is logged, the
 * request never fails for it), and for the rare question it declines (ClickHouseDeclined: more
 * codes to list than MAX_LISTED_CODES). Falling back is logged when the reason changes, not per request.
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

  aggregate(accountId: AccountId, codeId: QrCodeId, window: ScanWindow): Promise<ScanAggregates | null> {
    return this.read((reader) => reader.aggregate(accountId, codeId, window));
  }

  accountAggregate(accountId: AccountId, filter: AccountScanFilter, window: ScanWindow): Promise<AccountScanAggregates> {
    return this.read((reader) => reader.accountAggregate(accountId, filter, window));
  }

  /** The answer of ClickHouse when it is ready and takes the question (ClickHouseDeclined: PostgreSQL's), else PostgreSQL's. */
  private async read<Answer>(ask: (reader: ScanAnalyticsReader) => Promise<Answer>): Promise<Answer> {
    const readiness = this.status.readiness();
    if (readiness === 'ready') {
      try {
        const answer = await ask(this.clickhouse);
        this.lastReason = 'ready';
        this.metrics.scanAnalyticsReads.inc({ engine: 'clickhouse' });
        return answer;
      } catch (error) {
        if (!(error instanceof ClickHouseDeclined)) {
          this.status.failed();
          this.logger.warn(
            `Scan analytics answered from PostgreSQL: ClickHouse failed the query (${(error as Error).message.split('\n')[0].slice(0, 300)})`,
          );
          this.lastReason = 'unavailable';
        }
      }
    } else if (readiness !== 'not_configured' && readiness !== this.lastReason) {
      this.logger.warn(`Scan analytics read PostgreSQL: ClickHouse is ${readiness.replace('_', ' ')}`);
      this.lastReason = readiness;
    }
    const answer = await ask(this.postgres);
    this.metrics.scanAnalyticsReads.inc({ engine: 'postgresql' });
    return answer;
  }
}
