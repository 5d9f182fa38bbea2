import { Module, type OnModuleDestroy } from '@nestjs/common';
import { GeoLocator } from './geo/geo-locator';
import { GEO_LOCATOR_PROVIDER } from './geo/geo-locator.provider';
import { ScanBuffer } from './scan-buffer.service';
import { SCAN_COUNTS } from './scan-counts';
import { ScanStoreRepository } from './scan-store.repository';
import { StoredScanListeners } from './stored-scans';
import { VisitorHasher } from './visitor-hash';

/**
 * The scan pipeline (docs/scans-and-privacy.md): the in-memory buffer, its staging in Redis or on
 * disk, and the batch store; where a scan comes from (GeoLocator). A floor below the features:
 * the redirect host locates and records into it, QR codes read pending counts from it
 * (SCAN_COUNTS), webhooks listen to what it stores.
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
    GEO_LOCATOR_PROVIDER,
  ],
  exports: [ScanBuffer, SCAN_COUNTS, StoredScanListeners, GeoLocator, VisitorHasher],
})
export class ScansModule implements OnModuleDestroy {
  constructor(private readonly geo: GeoLocator) {}

  /** The geo database's file is no longer watched. */
  onModuleDestroy(): void {
    this.geo.close();
  }
}
