import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module';
import { FoldersModule } from '../folders/folders.module';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { ExportsController, QrCodesCsvController } from './exports.controller';
import { ExportsRepository } from './exports.repository';
import { ExportsService } from './exports.service';
import { ReportCsvService } from './report-csv.service';

/** ZIP exports as jobs and the list as CSV, in the import format or as a report (docs/exports-and-imports.md). */
@Module({
  imports: [QrCodesModule, FoldersModule, AnalyticsModule],
  controllers: [QrCodesCsvController, ExportsController],
  providers: [ExportsRepository, ExportsService, ReportCsvService],
})
export class ExportsModule {}
