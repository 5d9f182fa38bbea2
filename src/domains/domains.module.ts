import { Module } from '@nestjs/common';
import { DnsTxtLookup } from './dns-txt-lookup';
import { DomainEvents } from './domain-events';
import { DomainRecheck } from './domain-recheck.service';
import { DomainsController } from './domains.controller';
import { DomainsRepository } from './domains.repository';
import { DomainsService } from './domains.service';

/** Branded domains: below the QR code module (codes are placed on them), above infra. */
@Module({
  controllers: [DomainsController],
  providers: [DomainsRepository, DomainsService, DomainEvents, DnsTxtLookup, DomainRecheck],
  exports: [DomainsService, DomainEvents],
})
export class DomainsModule {}
