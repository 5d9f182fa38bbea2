import { Injectable } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { QrCodesService } from '../qrcodes/qr-codes.service';
import { UNKNOWN_PLACE } from '../scans';
import type { ResolveScanDto } from './dto/dry-run.dto';
import { decideLink } from './link-decision';
import { LinkDecisions } from './link-decisions.service';
import type { LinkDecision, LinkTarget } from './link-target';
import { LinksRepository } from './links.repository';
import type { RuleMiss } from './settings/link-rules-evaluator';
import type { Visit } from './visit';
import { VisitFactsReader } from './visit-facts';

/** The dry run's view of a scan: the decision, why earlier rules did not match, and whether the limit would stop it. */
interface SimulatedScan {
  decision: LinkDecision;
  misses: RuleMiss[];
  limitReached: boolean;
  fallbackLocation: string | null;
  /** the code's exact scan count the decision saw */
  scans: number;
}

/**
 * The dry-run resolver (docs/smart-links.md#dry-run-resolver): a simulated scan of one of the
 * account's dynamic codes, answered by the redirect host's own decision (decideLink), from the code
 * as stored now (not this instance's cached link), with every rule before the match explained; the
 * scan limit is compared, never reserved, and nothing is counted.
 */
@Injectable()
export class DryRunService {
  constructor(
    private readonly qrCodes: QrCodesService,
    private readonly links: LinksRepository,
    private readonly decisions: LinkDecisions,
    private readonly facts: VisitFactsReader,
  ) {}

  async resolve(accountId: AccountId, id: QrCodeId, scan: ResolveScanDto) {
    const code = await this.qrCodes.findOwned(accountId, id);
    const target = code.isDynamic && code.shortCode ? await this.links.findByShortCode(code.shortCode, code.domainId) : null;
    if (!code.shortCode || !target) {
      throw new ValidationFailedException([{ field: 'id', message: 'this code is static: it has no link to resolve (make it dynamic first)' }]);
    }
    const query = new URLSearchParams(Object.entries(scan.query ?? {}).map(([name, value]) => [name, String(value)])).toString();
    const visit: Visit = {
      shortCode: code.shortCode,
      ip: scan.visitor ?? '',
      headers: scan.accept_language === undefined ? {} : { 'accept-language': scan.accept_language },
      query: scan.query ?? {},
      url: `/r/${code.shortCode}${query ? `?${query}` : ''}`,
      userAgent: scan.user_agent || null,
      referrer: null,
      countable: true,
      // A country given is the scan's; else the visitor address's, as the redirect host would find it; else unknown.
      place: scan.country !== undefined ? { country: scan.country?.toUpperCase() ?? null, city: null } : scan.visitor ? undefined : UNKNOWN_PLACE,
    };
    const at = scan.time ? Date.parse(scan.time) : Date.now();
    return toResolved(
      await this.simulate(target, visit, at, scan.password_entered === true),
      code.rules.map((rule) => rule.name ?? null),
    );
  }

  private async simulate(target: LinkTarget, visit: Visit, at: number, passwordEntered: boolean): Promise<SimulatedScan> {
    const scans = await this.decisions.exactScanCount(target.codeId);
    const { decision, misses } = decideLink(target, this.facts.factsOf(visit, at, scans), {
      passwordAccepted: passwordEntered || target.passwordHash === null,
      explain: true,
    });
    const counted = (decision.kind === 'redirect' || decision.kind === 'page') && target.maxScans !== null && !this.facts.isBot(visit);
    const limitReached = counted && (await this.links.reservedScans(target.codeId)) >= (target.maxScans ?? Infinity);
    return { decision, misses, limitReached, fallbackLocation: target.fallbackLocation, scans };
  }
}

function toResolved({ decision, misses, limitReached, fallbackLocation, scans }: SimulatedScan, ruleNames: Array<string | null>) {
  const matched =
    'ruleIndex' in decision && decision.ruleIndex !== null ? { index: decision.ruleIndex, name: ruleNames[decision.ruleIndex] ?? null } : null;
  const answer = (outcome: string, status: number, location: string | null = null) => ({
    outcome,
    status,
    location,
    rule: matched,
    arm: decision.kind === 'redirect' ? decision.armIndex : null,
    rules_not_matched: misses.map((miss) => ({ index: miss.rule, name: miss.name, failed_condition: miss.failed })),
    scans,
  });
  if (limitReached) return fallbackLocation ? answer('limit_reached', 302, fallbackLocation) : answer('limit_reached', 410);
  switch (decision.kind) {
    case 'redirect':
      return answer('redirect', 302, decision.location);
    case 'page':
      return answer('landing_page', 200);
    case 'password_required':
      return answer('password_required', 200);
    case 'paused':
    case 'expired':
      return answer(decision.kind, 410);
    case 'refused':
    case 'not_found':
      return answer('refused', 404);
  }
}
