import { Module } from '@nestjs/common';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { BulkController } from './bulk.controller';
import { BulkService } from './bulk.service';

@Module({ imports: [QrCodesModule], controllers: [BulkController], providers: [BulkService] })
export class BulkModule {}
