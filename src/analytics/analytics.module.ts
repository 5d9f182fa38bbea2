import { Module } from '@nestjs/common';
import { FoldersModule } from '../folders/folders.module';
import { ScansModule } from '../scans/scans.module';
import { AccountAnalyticsController } from './account-analytics.controller';
import { ClickHouseErasureOutboxRepository } from './clickhouse/clickhouse-erasure-outbox.repository';
import { ClickHouseExportOutboxRepository } from './clickhouse/clickhouse-export-outbox.repository';
import { ClickHouseErasureWorker } from './clickhouse/clickhouse-erasure.worker';
import { ClickHouseExportWorker } from './clickhouse/clickhouse-export.worker';
import { ClickHouseRetentionRepository } from './clickhouse/clickhouse-retention.repository';
import { ClickHouseScanErasuresRepository } from './clickhouse/clickhouse-scan-erasures.repository';
import { ClickHouseScanEventsRepository } from './clickhouse/clickhouse-scan-events.repository';
import { ScanAnalyticsController } from './scan-analytics.controller';
import { ScanAnalyticsEngines } from './scan-analytics-engines';
import { SCAN_ANALYTICS_READER } from './scan-analytics-reader';
import { ScanAnalyticsRepository } from './scan-analytics.repository';
import { ScanAnalyticsService } from './scan-analytics.service';
import { ScanHistoryController } from './scan-history/scan-history.controller';
import { ScanHistoryRepository } from './scan-history/scan-history.repository';
import { ScanHistoryService } from './scan-history/scan-history.service';
import { ScanRetentionRepository } from './retention/scan-retention.repository';
import { ScanRetention } from './retention/scan-retention.service';

/**
 * Scan analytics over stored scan events (docs/scans-and-privacy.md): GET /api/v1/qrcodes/:id/scans,
 * GET /api/v1/analytics, a code's scans as CSV and their erasure (scan-history/), from PostgreSQL or,
 * when configured and caught up, ClickHouse, whose export it runs (docs/clickhouse.md); scan
 * maintenance: months of scan_events created ahead, retention (docs/scans-and-privacy.md#retention).
 */
@Module({
  imports: [ScansModule, FoldersModule],
  controllers: [ScanAnalyticsController, AccountAnalyticsController, ScanHistoryController],
  providers: [
    ScanAnalyticsRepository,
    ClickHouseScanEventsRepository,
    ClickHouseExportOutboxRepository,
    ClickHouseExportWorker,
    ClickHouseErasureWorker,
    ScanAnalyticsEngines,
    { provide: SCAN_ANALYTICS_READER, useExisting: ScanAnalyticsEngines },
    ScanAnalyticsService,
    ScanHistoryRepository,
    ScanHistoryService,
    ClickHouseErasureOutboxRepository,
    ClickHouseScanErasuresRepository,
    ScanRetentionRepository,
    ClickHouseRetentionRepository,
    ScanRetention,
  ],
  exports: [ScanAnalyticsService],
})
export class AnalyticsModule {}
