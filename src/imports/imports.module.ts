import { Module } from '@nestjs/common';
import { FoldersModule } from '../folders/folders.module';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { ImportsController } from './imports.controller';
import { ImportsRepository } from './imports.repository';
import { ImportsService } from './imports.service';

/** CSV imports as jobs (docs/exports-and-imports.md#csv-import), through the QR code service's create path. */
@Module({ imports: [QrCodesModule, FoldersModule], controllers: [ImportsController], providers: [ImportsRepository, ImportsService] })
export class ImportsModule {}
