import { Module } from '@nestjs/common';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { ImagesController } from './images.controller';
import { ImagesService } from './images.service';

@Module({ imports: [QrCodesModule], controllers: [ImagesController], providers: [ImagesService] })
export class ImagesModule {}
