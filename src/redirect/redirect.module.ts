import { Module } from '@nestjs/common';
import { LinkResolver } from './link-resolver.service';
import { LinksRepository } from './links.repository';
import { RedirectService } from './redirect.service';
import { ScanBuffer } from './scan-buffer.service';
import { ScanStoreRepository } from './scan-store.repository';

@Module({
  providers: [LinksRepository, LinkResolver, ScanStoreRepository, ScanBuffer, RedirectService],
  exports: [LinkResolver, ScanBuffer, RedirectService],
})
export class RedirectModule {}
