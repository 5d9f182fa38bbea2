import { Module } from '@nestjs/common';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { BulkEditsController } from './bulk-edits.controller';
import { BulkEditsService } from './bulk-edits.service';

/**
 * Bulk edits by filter or ids (docs/tags-and-bulk-edits.md#bulk-edits): each code changed through
 * the QR code service, small edits within the request, larger ones as jobs.
 */
@Module({
  imports: [QrCodesModule],
  controllers: [BulkEditsController],
  providers: [BulkEditsService],
})
export class BulkEditsModule {}
