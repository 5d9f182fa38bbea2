import { Injectable } from '@nestjs/common';
import type { QrCodeId } from '../common/ids/resource-ids';
import type { ServedDomain } from '../domains';
import { SHORT_CODE_PATTERN } from '../qrcodes/short-code';
import { ScanBuffer } from '../scans';
import { LinkCache } from './link-cache.service';
import { decideLink } from './link-decision';
import { LinkPasswordGate } from './link-password-gate';
import { type LinkDecision, type LinkTarget, linkStatus, type ServedDecision } from './link-target';
import { LinksRepository } from './links.repository';
import type { Visit } from './visit';
import { VisitFactsReader } from './visit-facts';

/** A live link past its scan limit (max_scans): its fallback URL or the "limit reached" page. */
const LIMIT_REACHED = Object.freeze({ kind: 'limit_reached' as const });

/** What a visit gets: the link's decision, and for a served one the scan limit's verdict. */
export type VisitDecision = LinkDecision | typeof LIMIT_REACHED;

/**
 * The decision step of a scan (docs/smart-links.md#order): the link of a short code on its host,
 * then what the visit gets (decideLink), then the scan limit. Synchronous when the link is in this
 * instance's memory and needs no database step (nearly every scan: no promise on the hot path);
 * a promise when the link must be looked up, its scan count read (scans_below) or its scan
 * reserved (max_scans).
 */
@Injectable()
export class LinkDecisions {
  constructor(
    private readonly links: LinkCache,
    private readonly repository: LinksRepository,
    private readonly scans: ScanBuffer,
    private readonly facts: VisitFactsReader,
    private readonly passwords: LinkPasswordGate,
  ) {}

  /** The link of a short code on its host: from memory when this instance has it, else looked up (null: no such link). */
  linkOf(shortCode: string, domain?: ServedDomain): LinkTarget | null | Promise<LinkTarget | null> {
    // A pending domain serves nothing; a malformed code names nothing on any host.
    if (domain?.served === false || !SHORT_CODE_PATTERN.test(shortCode)) return null;
    const cached = this.links.cached(shortCode, domain?.id);
    return cached !== undefined ? cached : this.links.load(shortCode, domain?.id);
  }

  /** What a visit of `target` (null: no such link) gets, now. */
  decide(target: LinkTarget | null, visit: Visit): VisitDecision | Promise<VisitDecision> {
    if (target?.rules?.needsScanCount) return this.exactScanCount(target.codeId).then((count) => this.decideNow(target, visit, count));
    return this.decideNow(target, visit);
  }

  /** A code's exact scan count: stored, and pending in the scan buffer (what `scans` shows). */
  async exactScanCount(codeId: QrCodeId): Promise<number> {
    const { result, pending } = await this.scans.readWithPending(
      () => this.repository.storedScans(codeId),
      () => [codeId],
    );
    return result + (pending.get(codeId) ?? 0);
  }

  private decideNow(target: LinkTarget | null, visit: Visit, scanCount?: number): VisitDecision | Promise<VisitDecision> {
    const now = Date.now();
    // Most links answer every live visit alike: decided as the link was loaded (steadyDecision), no facts read.
    if (target?.steady && linkStatus(target, now) === 'active') return this.withinLimit(target, visit, target.steady);
    const cookies = headerText(visit.headers.cookie) ?? undefined;
    const passwordAccepted = target === null || this.passwords.accepts(target, visit.shortCode, cookies, now);
    const { decision } = decideLink(target, this.facts.factsOf(visit, now, scanCount), { passwordAccepted });
    if (target !== null && (decision.kind === 'redirect' || decision.kind === 'page')) return this.withinLimit(target, visit, decision);
    return decision;
  }

  /** A served decision once the link's scan limit (if any) lets the scan through. */
  private withinLimit(target: LinkTarget, visit: Visit, decision: ServedDecision): VisitDecision | Promise<VisitDecision> {
    // Only a scan uses up a limit: link checkers (HEAD) and bots are answered without one.
    if (target.maxScans === null || !visit.countable || this.facts.isBot(visit)) return decision;
    return this.repository.reserveScan(target.codeId, target.maxScans).then((reserved) => (reserved ? decision : LIMIT_REACHED));
  }
}

function headerText(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value.join(', ') : value) ?? null;
}
