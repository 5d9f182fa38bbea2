import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains/domains.module';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { ScansModule } from '../scans/scans.module';
import { LinkResolver } from './link-resolver.service';
import { LinksRepository } from './links.repository';
import { RedirectService } from './redirect.service';
import { LinkPasswordGate } from './link-password-gate';
import { DomainHosts } from './domain-hosts.service';
import { TlsAskController } from './tls-ask.controller';
import { LinkResolveController } from './link-resolve.controller';
import { LinkResolveService } from './link-resolve.service';

@Module({
  imports: [QrCodesModule, DomainsModule, ScansModule],
  controllers: [TlsAskController, LinkResolveController],
  providers: [LinksRepository, LinkResolver, RedirectService, DomainHosts, LinkPasswordGate, LinkResolveService],
  exports: [RedirectService, DomainHosts],
})
export class RedirectModule {}
