import { Module } from '@nestjs/common';
import { ScanAnalyticsController } from './scan-analytics.controller';
import { ScanAnalyticsRepository } from './scan-analytics.repository';
import { ScanAnalyticsService } from './scan-analytics.service';

/** Scan analytics over stored scan events (docs/scans-and-privacy.md): GET /api/v1/qrcodes/:id/scans. */
@Module({
  controllers: [ScanAnalyticsController],
  providers: [ScanAnalyticsRepository, ScanAnalyticsService],
})
export class AnalyticsModule {}
