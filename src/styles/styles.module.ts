import { Module } from '@nestjs/common';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { StylesController } from './styles.controller';
import { StylesService } from './styles.service';

@Module({ imports: [QrCodesModule], controllers: [StylesController], providers: [StylesService] })
export class StylesModule {}
