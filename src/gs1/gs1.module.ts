import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains/domains.module';
import { ScansModule } from '../scans';
import { Gs1ImportController } from './items/gs1-import.controller';
import { Gs1ItemEvents } from './items/gs1-item-events';
import { Gs1LinkImport } from './items/gs1-link-import.service';
import { Gs1ItemsController } from './items/gs1-items.controller';
import { Gs1ItemsRepository } from './items/gs1-items.repository';
import { Gs1ItemsService } from './items/gs1-items.service';
import { Gs1PrintController } from './items/gs1-print.controller';
import { Gs1PrintService } from './items/gs1-print.service';
import { Gs1ItemLookup } from './resolver/gs1-item-lookup';
import { Gs1Resolver } from './resolver/gs1-resolver.service';
import { Gs1ScanBuffer } from './scans/gs1-scan-buffer';
import { Gs1ScanRecorder } from './scans/gs1-scan-recorder';
import { Gs1ScansController } from './scans/gs1-scans.controller';
import { Gs1ScansRepository } from './scans/gs1-scans.repository';
import { Gs1ScansService } from './scans/gs1-scans.service';

/** GS1 Digital Link: items and their links, the conformant resolver (docs/gs1-digital-link.md). */
@Module({
  imports: [DomainsModule, ScansModule],
  controllers: [Gs1ImportController, Gs1ItemsController, Gs1PrintController, Gs1ScansController],
  providers: [
    Gs1ItemEvents,
    Gs1LinkImport,
    Gs1ItemsRepository,
    Gs1ItemsService,
    Gs1ItemLookup,
    Gs1Resolver,
    Gs1PrintService,
    Gs1ScansRepository,
    Gs1ScanBuffer,
    Gs1ScanRecorder,
    Gs1ScansService,
  ],
  exports: [Gs1ItemsService, Gs1Resolver, Gs1ScanRecorder, Gs1ItemEvents],
})
export class Gs1Module {}
