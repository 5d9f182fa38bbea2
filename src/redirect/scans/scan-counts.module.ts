import { Global, Module } from '@nestjs/common';
import { SCAN_COUNTS } from '../../qrcodes/scan-counts';
import { RedirectModule } from '../redirect.module';
import { ScanBuffer } from './scan-buffer.service';

/**
 * Gives the QR code module the scan counts it needs (SCAN_COUNTS) from the redirect module's scan
 * buffer, app-wide, so that the QR code module never imports the redirect module (which is above
 * it: it listens to code changes).
 */
@Global()
@Module({
  imports: [RedirectModule],
  providers: [{ provide: SCAN_COUNTS, useExisting: ScanBuffer }],
  exports: [SCAN_COUNTS],
})
export class ScanCountsModule {}
