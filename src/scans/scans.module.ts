import { Module } from '@nestjs/common';
import { ScanBuffer } from './scan-buffer.service';
import { SCAN_COUNTS } from './scan-counts';
import { ScanStoreRepository } from './scan-store.repository';
import { StoredScanListeners } from './stored-scans';
import { VisitorHasher } from './visitor-hash';

/**
 * The scan pipeline (docs/scans-and-privacy.md): the in-memory buffer, its staging in Redis or on
 * disk, and the batch store. A floor below the features: the redirect host records into it, QR
 * codes read pending counts from it (SCAN_COUNTS), webhooks listen to what it stores.
 */
@Module({
  providers: [
    ScanStoreRepository,
    StoredScanListeners,
    {
      provide: VisitorHasher,
      useFactory: (store: ScanStoreRepository) => new VisitorHasher(() => store.visitorSecret()),
      inject: [ScanStoreRepository],
    },
    ScanBuffer,
    { provide: SCAN_COUNTS, useExisting: ScanBuffer },
  ],
  exports: [ScanBuffer, SCAN_COUNTS, StoredScanListeners],
})
export class ScansModule {}
