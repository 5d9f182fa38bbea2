import { Module } from '@nestjs/common';
import { DnsTxtLookup } from './dns-txt-lookup';
import { DomainEvents } from './domain-events';
import { DomainHosts } from './domain-hosts.service';
import { DomainRecheck } from './domain-recheck.service';
import { DomainsController } from './domains.controller';
import { DomainsRepository } from './domains.repository';
import { DomainsService } from './domains.service';
import { TlsAskController } from './tls-ask.controller';

/**
 * Branded domains: managing them (the API, DNS verification, the daily re-check) and serving them
 * (which domain a request's Host is, DomainHosts; Caddy's TLS ask). Below the QR code module
 * (codes are placed on them), above infra; the redirect host answers on them.
 */
@Module({
  controllers: [DomainsController, TlsAskController],
  providers: [DomainsRepository, DomainsService, DomainEvents, DnsTxtLookup, DomainRecheck, DomainHosts],
  exports: [DomainsService, DomainEvents, DomainHosts],
})
export class DomainsModule {}
