import { Module } from '@nestjs/common';
import { ApiExtraModels } from '@nestjs/swagger';
import { FoldersModule } from '../folders/folders.module';
import { RedirectModule } from '../redirect/redirect.module';
import { CONTENT_DTO_BY_TYPE } from './content';
import { QrCodesController } from './qr-codes.controller';
import { QrCodesRepository } from './qr-codes.repository';
import { QrCodesService } from './qr-codes.service';
import { SearchResultCache } from './search-result-cache';

@ApiExtraModels(...Object.values(CONTENT_DTO_BY_TYPE))
@Module({
  imports: [FoldersModule, RedirectModule],
  controllers: [QrCodesController],
  providers: [QrCodesRepository, QrCodesService, SearchResultCache],
  exports: [QrCodesService],
})
export class QrCodesModule {}
