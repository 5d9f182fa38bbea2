import { Module } from '@nestjs/common';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { ScansModule } from '../scans/scans.module';
import { LinkResolver } from './link-resolver.service';
import { LinksRepository } from './links.repository';
import { RedirectService } from './redirect.service';

@Module({
  imports: [QrCodesModule, ScansModule],
  providers: [LinksRepository, LinkResolver, RedirectService],
  exports: [RedirectService],
})
export class RedirectModule {}
