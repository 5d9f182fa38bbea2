import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains/domains.module';
import { Gs1ItemsController } from './items/gs1-items.controller';
import { Gs1ItemsRepository } from './items/gs1-items.repository';
import { Gs1ItemsService } from './items/gs1-items.service';
import { Gs1PrintController } from './items/gs1-print.controller';
import { Gs1PrintService } from './items/gs1-print.service';
import { Gs1ItemLookup } from './resolver/gs1-item-lookup';
import { Gs1Resolver } from './resolver/gs1-resolver.service';

/** GS1 Digital Link: items and their links, the conformant resolver (docs/gs1-digital-link.md). */
@Module({
  imports: [DomainsModule],
  controllers: [Gs1ItemsController, Gs1PrintController],
  providers: [Gs1ItemsRepository, Gs1ItemsService, Gs1ItemLookup, Gs1Resolver, Gs1PrintService],
  exports: [Gs1ItemsService, Gs1Resolver],
})
export class Gs1Module {}
