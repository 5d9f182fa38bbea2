import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains/domains.module';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { ImagesController } from './images.controller';
import { ExportController } from './export.controller';
import { ImagesService } from './images.service';

@Module({
  imports: [QrCodesModule, DomainsModule],
  controllers: [ImagesController, ExportController],
  providers: [ImagesService],
  exports: [ImagesService],
})
export class ImagesModule {}
