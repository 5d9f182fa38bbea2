import { Module } from '@nestjs/common';
import { FoldersModule } from '../folders/folders.module';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { ExportsController, QrCodesCsvController } from './exports.controller';
import { ExportsRepository } from './exports.repository';
import { ExportsService } from './exports.service';

/** ZIP exports as jobs and the list as CSV (docs/exports-and-imports.md). */
@Module({
  imports: [QrCodesModule, FoldersModule],
  controllers: [QrCodesCsvController, ExportsController],
  providers: [ExportsRepository, ExportsService],
})
export class ExportsModule {}
