import { Module } from '@nestjs/common';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { LinkResolver } from './link-resolver.service';
import { LinksRepository } from './links.repository';
import { RedirectService } from './redirect.service';
import { ScanBuffer } from './scans/scan-buffer.service';
import { ScanStoreRepository } from './scans/scan-store.repository';
import { StoredScanListeners } from './scans/stored-scans';
import { VisitorHasher } from './scans/visitor-hash';

@Module({
  imports: [QrCodesModule],
  providers: [
    LinksRepository,
    LinkResolver,
    ScanStoreRepository,
    StoredScanListeners,
    { provide: VisitorHasher, useFactory: (store: ScanStoreRepository) => new VisitorHasher(() => store.visitorSecret()), inject: [ScanStoreRepository] },
    ScanBuffer,
    RedirectService,
  ],
  exports: [ScanBuffer, RedirectService, StoredScanListeners],
})
export class RedirectModule {}
