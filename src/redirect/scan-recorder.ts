import { Injectable } from '@nestjs/common';
import { ScanBuffer } from '../scans';
import { type LinkTarget, type ServedDecision, type Visit, VisitFactsReader } from '../smart-links';

/**
 * The record step of a scan: once its answer (a redirect or the landing page of a live code) has
 * been sent, the scan goes to the scan pipeline (ScanBuffer, src/scans/) with its place and agent
 * as the decision read them. HEAD requests are answered but are not scans. A request without a
 * user agent (or an empty one) is recorded as a bot: every phone's camera and browser sends one,
 * so what sends none is a script or a scanner of links, not a person scanning.
 */
@Injectable()
export class ScanRecorder {
  constructor(
    private readonly scans: ScanBuffer,
    private readonly facts: VisitFactsReader,
  ) {}

  record(target: LinkTarget, decision: ServedDecision, visit: Visit): void {
    if (!visit.countable) return;
    const known = this.facts.agentOf(visit);
    const place = this.facts.placeOf(visit);
    this.scans.record({
      codeId: target.codeId,
      at: Date.now(),
      userAgent: known && known.agent,
      referrer: visit.referrer,
      ip: visit.ip,
      isBot: known === null || known.isBot,
      country: place.country,
      city: place.city,
      ruleIndex: decision.ruleIndex,
      armIndex: decision.kind === 'redirect' ? decision.armIndex : null,
    });
  }
}
