import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module';
import { FoldersModule } from '../folders/folders.module';
import { ImagesModule } from '../images/images.module';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { ScansModule } from '../scans/scans.module';
import { RedirectModule } from '../redirect/redirect.module';
import { TagsModule } from '../tags/tags.module';
import { ImageLinkServing } from './image-link-serving';
import { ShareHostRoutes } from './share-host.routes';
import { PreviewImageRoutes } from './preview-image.routes';
import { SharePasswords } from './share-passwords';
import { AnalyticsChartsController } from './analytics-charts.controller';
import { ImageLinksController } from './image-links.controller';
import { ImageLinksRepository } from './image-links.repository';
import { ImageLinksService } from './image-links.service';
import { ShareLinksController } from './share-links.controller';
import { ShareLinksRepository } from './share-links.repository';
import { ShareLinksService } from './share-links.service';
import { ShareTokens } from './share-tokens';
import { StatsPagesService } from './stats-pages.service';

/**
 * Sharing without a key (docs/sharing.md): read-only stats pages of a code, a folder or a tag behind
 * signed, revocable links, public image URLs for <img>, and the charts drawn for both.
 */
@Module({
  imports: [QrCodesModule, FoldersModule, TagsModule, AnalyticsModule, ImagesModule, ScansModule, RedirectModule],
  controllers: [ShareLinksController, ImageLinksController, AnalyticsChartsController],
  providers: [
    ShareTokens,
    ShareLinksRepository,
    ShareLinksService,
    StatsPagesService,
    ImageLinksRepository,
    ImageLinksService,
    ImageLinkServing,
    ShareHostRoutes,
    PreviewImageRoutes,
    SharePasswords,
  ],
})
export class ShareModule {}
