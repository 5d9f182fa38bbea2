import { Module } from '@nestjs/common';
import { FoldersModule } from '../folders/folders.module';
import { ScansModule } from '../scans/scans.module';
import { AccountAnalyticsController } from './account-analytics.controller';
import { ClickHouseExportOutboxRepository } from './clickhouse/clickhouse-export-outbox.repository';
import { ClickHouseExportWorker } from './clickhouse/clickhouse-export.worker';
import { ClickHouseScanEventsRepository } from './clickhouse/clickhouse-scan-events.repository';
import { ScanAnalyticsController } from './scan-analytics.controller';
import { ScanAnalyticsEngines } from './scan-analytics-engines';
import { SCAN_ANALYTICS_READER } from './scan-analytics-reader';
import { ScanAnalyticsRepository } from './scan-analytics.repository';
import { ScanAnalyticsService } from './scan-analytics.service';

/**
 * Scan analytics over stored scan events (docs/scans-and-privacy.md): GET /api/v1/qrcodes/:id/scans and
 * GET /api/v1/analytics,
 * from PostgreSQL or, when configured and caught up, ClickHouse, whose export it runs (docs/clickhouse.md).
 */
@Module({
  imports: [ScansModule, FoldersModule],
  controllers: [ScanAnalyticsController, AccountAnalyticsController],
  providers: [
    ScanAnalyticsRepository,
    ClickHouseScanEventsRepository,
    ClickHouseExportOutboxRepository,
    ClickHouseExportWorker,
    ScanAnalyticsEngines,
    { provide: SCAN_ANALYTICS_READER, useExisting: ScanAnalyticsEngines },
    ScanAnalyticsService,
  ],
})
export class AnalyticsModule {}
