import { Module } from '@nestjs/common';
import { LinkResolver } from './link-resolver.service';
import { LinksRepository } from './links.repository';
import { RedirectController } from './redirect.controller';
import { RedirectService } from './redirect.service';
import { ScanBuffer } from './scan-buffer.service';
import { ScanStoreRepository } from './scan-store.repository';

@Module({
  controllers: [RedirectController],
  providers: [LinksRepository, LinkResolver, ScanStoreRepository, ScanBuffer, RedirectService],
  exports: [LinkResolver, ScanBuffer],
})
export class RedirectModule {}
