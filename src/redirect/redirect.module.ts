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

@Module({
  imports: [QrCodesModule, DomainsModule, ScansModule],
  controllers: [TlsAskController],
  providers: [LinksRepository, LinkResolver, RedirectService, DomainHosts, LinkPasswordGate],
  exports: [RedirectService, DomainHosts],
})
export class RedirectModule {}
