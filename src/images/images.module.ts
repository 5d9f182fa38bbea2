import { Module } from '@nestjs/common';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { ImagesController } from './images.controller';
import { ExportController } from './export.controller';
import { ImagesService } from './images.service';

@Module({ imports: [QrCodesModule], controllers: [ImagesController, ExportController], providers: [ImagesService] })
export class ImagesModule {}
