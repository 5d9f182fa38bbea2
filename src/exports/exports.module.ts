import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module';
import { FoldersModule } from '../folders/folders.module';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { ExportsController, QrCodesCsvController } from './exports.controller';
import { ExportsRepository } from './exports.repository';
import { ExportsService } from './exports.service';
import { ListCsvService } from './list-csv.service';
import { ReportCsvService } from './report-csv.service';

/** Exports as jobs (ZIP or CSV) and the list as CSV streamed, in the import format or as a report (docs/exports-and-imports.md). */
@Module({
  imports: [QrCodesModule, FoldersModule, AnalyticsModule],
  controllers: [QrCodesCsvController, ExportsController],
  providers: [ExportsRepository, ExportsService, ListCsvService, ReportCsvService],
})
export class ExportsModule {}
