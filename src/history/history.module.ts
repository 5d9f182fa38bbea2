import { Module } from '@nestjs/common';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { CodeHistoryController } from './code-history.controller';
import { CodeHistoryRepository } from './code-history.repository';
import { CodeHistoryService } from './code-history.service';

/**
 * Destination history of QR codes (docs/statuses-and-lifecycle.md#destination-history). Above the
 * QR code module: it listens to QrCodeEvents and restores through QrCodesService.
 */
@Module({
  imports: [QrCodesModule],
  controllers: [CodeHistoryController],
  providers: [CodeHistoryRepository, CodeHistoryService],
})
export class HistoryModule {}
