import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { ScansModule } from '../scans';
import { DryRunController } from './dry-run.controller';
import { DryRunService } from './dry-run.service';
import { LinkCache } from './link-cache.service';
import { LinkDecisions } from './link-decisions.service';
import { LinkPasswordGate } from './link-password-gate';
import { LinksRepository } from './links.repository';
import { VisitFactsReader } from './visit-facts';

/**
 * Smart links (docs/smart-links.md): the link of a short code (LinkCache), the decision of a visit
 * (LinkDecisions: state, password, rules, scan limit), the password gate and the dry run. Their
 * settings, checks and rules evaluator (`settings/`) sit below the QR code module, which stores
 * them with each code; this module sits above it and below the redirect host, which answers with
 * its decisions.
 */
@Module({
  imports: [QrCodesModule, DomainsModule, ScansModule],
  controllers: [DryRunController],
  providers: [LinksRepository, LinkCache, LinkPasswordGate, VisitFactsReader, LinkDecisions, DryRunService],
  exports: [LinkDecisions, LinkPasswordGate, VisitFactsReader],
})
export class SmartLinksModule {}
