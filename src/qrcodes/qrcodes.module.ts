import { Module } from '@nestjs/common';
import { ApiExtraModels } from '@nestjs/swagger';
import { DomainsModule } from '../domains/domains.module';
import { FoldersModule } from '../folders/folders.module';
import { ScansModule } from '../scans/scans.module';
import { TagsModule } from '../tags/tags.module';
import { CONTENT_DTO_BY_TYPE } from './content';
import { QrCodeEvents } from './qr-code-events';
import { QrCodesController } from './qr-codes.controller';
import { QrCodesRepository } from './qr-codes.repository';
import { QrCodesService } from './qr-codes.service';
import { SearchResultCache } from './search-result-cache';

/**
 * QR codes: CRUD and list. It depends on nothing above it: modules that keep something derived from
 * codes listen to QrCodeEvents, and the scan counts it shows come from the scan pipeline's SCAN_COUNTS.
 */
@ApiExtraModels(...Object.values(CONTENT_DTO_BY_TYPE))
@Module({
  imports: [FoldersModule, DomainsModule, ScansModule, TagsModule],
  controllers: [QrCodesController],
  providers: [QrCodesRepository, QrCodesService, SearchResultCache, QrCodeEvents],
  exports: [QrCodesService, QrCodeEvents],
})
export class QrCodesModule {}
