import { Injectable } from '@nestjs/common';
import { createLru } from '../infra/cache/lru';
import { MetricsService } from '../infra/observability/metrics.service';
import { SHORT_CODE_PATTERN } from '../qrcodes/short-code';
import { landingFile, landingPage, type LandingFile, type LandingFileName, type LandingType } from './landing/landing-page';
import { EXPIRED_PAGE, NOT_FOUND_PAGE, PAUSED_PAGE } from './landing/status-pages';
import { type LinkTarget, linkStatus } from './link-target';
import { LinkResolver } from './link-resolver.service';
import { GeoLocator, type GeoPlace } from '../scans/geo/geo-locator';
import { unknownCodeAnswer } from './domain-answers';
import type { ServedDomain } from './served-domain';
import { KnownAgents } from '../scans/known-agents';
import { VisitorHasher } from '../scans/visitor-hash';
import type { QrCodeId } from '../common/ids/resource-ids';
import { AgentTraitsCache } from '../qrcodes/smart-links/agent-traits';
import type { RuleMiss, ScanFacts } from '../qrcodes/smart-links/link-rules-evaluator';
import { LIMIT_REACHED_PAGE, passwordPage, TOO_MANY_ATTEMPTS_PAGE } from './landing/link-control-pages';
import { PASSWORD_PAGE_CSP } from './landing/page-style';
import { decideLink, type LinkDecision, type ServedDecision } from './link-decision';
import { LinkPasswordGate } from './link-password-gate';
import { LinksRepository } from './links.repository';
import { VisitFacts, type VisitLookups } from './visit-facts';
import { ScanBuffer } from '../scans/scan-buffer.service';

/** A visit no rule answered (shared: most scans). */
const NO_RULE_MATCHED = Object.freeze({ ruleIndex: null, armIndex: null });

/** About 60 MB of pages at most per instance (5-8 KB each). */
const MAX_KEPT_PAGES = 10_000;
/** A kept page is checked against the current link on every use; its expiry only frees memory. */
const KEPT_PAGE_TTL_MS = 10 * 60_000;

export interface Visit {
  shortCode: string;
  ip: string;
  /** The request's headers as they came (the trusted country header, Accept-Language, the password cookie); never stored. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The scanned URL's query (`/r/<code>?src=poster`): rules may ask for its parameters. */
  query: Readonly<Record<string, string | string[] | undefined>>;
  /** The path and query as requested: where the password form posts back to. */
  url: string;
  userAgent: string | null;
  referrer: string | null;
  /** HEAD requests (link checkers) are answered but not recorded. */
  countable: boolean;
  /** Where the visit comes from, once looked up (placeOf): one lookup per scan, however many read it. */
  place?: GeoPlace;
  /** The branded domain the request came to; left out: the default redirect host. */
  domain?: ServedDomain;
  /** The rule and split arm that answered it (set by the answer, recorded with the scan). */
  matched?: Readonly<{ ruleIndex: number | null; armIndex: number | null }>;
}

/** The dry-run resolver's view of a scan: the decision, why earlier rules did not match, and whether the limit would stop it. */
export interface SimulatedScan {
  decision: LinkDecision;
  misses: RuleMiss[];
  limitReached: boolean;
  fallbackLocation: string | null;
  /** the code's exact scan count the decision saw */
  scans: number;
}

/** An answer to a visit; `scanOf` names the code whose scan it is, once the answer has been sent (recordScan). */
export type RedirectAnswer =
  | { kind: 'redirect'; location: string; scanOf?: LinkTarget; status?: 302 | 303; cookie?: string }
  | { kind: 'page'; status: 200 | 403 | 404 | 410 | 429; html: string | Buffer; scanOf?: LinkTarget; csp?: string }
  | { kind: 'file'; file: LandingFile };

/**
 * Answers a scan of a short link (docs/scans-and-privacy.md, docs/smart-links.md): the link's state
 * first (unknown: 404 page; paused, expired: 410 page), then its password (a form), then its rules;
 * url codes and rule URLs redirect, other types get their landing page; a code with a scan limit
 * reserves the scan before answering with its target. A scan is recorded only once its answer (a
 * redirect or the landing page of a live code) has been sent; bots are answered and recorded as
 * bots, not counted. Downloads a page offers are not scans.
 */
@Injectable()
export class RedirectService {
  private readonly agents = new KnownAgents();
  private readonly traits = new AgentTraitsCache();
  /**
   * Pages of live links by short code, each kept with the link object it was built from: a change
   * of the code replaces that object in the near cache, so a kept page is served only while its
   * version is the current one. Bounded apart from the links (pages are kilobytes, links are not).
   */
  private readonly pages = createLru<{ target: LinkTarget; page: Buffer }>({ max: MAX_KEPT_PAGES, ttl: KEPT_PAGE_TTL_MS });
  /** How the facts of a visit are looked up (one object for every visit: VisitFacts makes no closures per visit). */
  private readonly lookups: VisitLookups<Visit> = {
    country: (visit) => this.placeOf(visit).country,
    traits: (visit) => this.traits.of(visit.userAgent, this.isBot(visit)),
    visitorHash: (visit, at) => this.visitors.hash(at, visit.ip, visit.userAgent),
  };

  constructor(
    private readonly links: LinkResolver,
    private readonly linksRepository: LinksRepository,
    private readonly scans: ScanBuffer,
    private readonly metrics: MetricsService,
    private readonly geo: GeoLocator,
    private readonly visitors: VisitorHasher,
    private readonly passwords: LinkPasswordGate,
  ) {}

  /**
   * The answer to a visit: at once when the link is in this instance's near cache and needs no
   * database step (nearly every scan; no promise and no microtask on the hot path), else once the
   * link is looked up, its scan count read (scans_below) or its scan reserved (max_scans).
   */
  answer(visit: Visit): RedirectAnswer | Promise<RedirectAnswer> {
    const target = this.targetOf(visit.shortCode, visit.domain);
    return target instanceof Promise ? target.then((found) => this.answerFor(found, visit)) : this.answerFor(target, visit);
  }

  /** The link of a visit's code on its host: from memory when this instance has it, else looked up (null: no such link). */
  targetOf(shortCode: string, domain?: ServedDomain): LinkTarget | null | Promise<LinkTarget | null> {
    // A pending domain serves nothing; a malformed code names nothing on any host.
    if (domain?.served === false || !SHORT_CODE_PATTERN.test(shortCode)) return null;
    const cached = this.links.cached(shortCode, domain?.id);
    return cached !== undefined ? cached : this.links.resolve(shortCode, domain?.id);
  }

  /**
   * The password form's post: limited attempts, then a cookie for the link and a 303 back to the
   * scanned link (whose GET is then the scan), or the form again after a wrong password.
   */
  async submitPassword(visit: Visit, password: string): Promise<RedirectAnswer> {
    const target = await this.targetOf(visit.shortCode, visit.domain);
    const now = Date.now();
    // Only a live protected link takes a post; any other answers it as the redirect host answers other methods
    // (the 404 page), or as its scan would when paused or expired.
    if (!target || target.passwordHash === null) return unknownCodeAnswer(visit.domain);
    const status = linkStatus(target, now);
    if (status === 'paused') return { kind: 'page', status: 410, html: PAUSED_PAGE };
    if (status === 'expired') return { kind: 'page', status: 410, html: EXPIRED_PAGE };
    const attempt = await this.passwords.attempt(target, visit.shortCode, visit.ip, password, now);
    this.metrics.redirects.inc(`password_${attempt.kind}`);
    if (attempt.kind === 'too_many') return { kind: 'page', status: 429, html: TOO_MANY_ATTEMPTS_PAGE };
    if (attempt.kind === 'wrong') return { kind: 'page', status: 403, html: passwordPage(visit.url, true), csp: PASSWORD_PAGE_CSP };
    return { kind: 'redirect', location: visit.url, status: 303, cookie: attempt.cookie };
  }

  /**
   * Records the scan of a sent answer (HEAD requests are answered but are not scans). A request
   * without a user agent (or an empty one) is recorded as a bot: every phone's camera and browser
   * sends one, so what sends none is a script or a scanner of links, not a person scanning.
   */
  recordScan(target: LinkTarget, visit: Visit): void {
    if (!visit.countable) return;
    const now = Date.now();
    const known = visit.userAgent ? this.agents.recognise(visit.userAgent) : null;
    const place = this.placeOf(visit);
    this.scans.record({
      codeId: target.codeId,
      at: now,
      userAgent: known && known.agent,
      referrer: visit.referrer,
      ip: visit.ip,
      isBot: known === null || known.isBot,
      country: place.country,
      city: place.city,
      ruleIndex: visit.matched?.ruleIndex ?? null,
      armIndex: visit.matched?.armIndex ?? null,
    });
  }

  /**
   * Where a visit comes from (country, city; docs/scans-and-privacy.md#where-a-scan-comes-from),
   * looked up on first use and kept on the visit: what decides the answer by country calls it
   * before answering, and the scan record after the answer reuses that lookup. Only the place is
   * kept, never the address.
   */
  placeOf(visit: Visit): GeoPlace {
    return (visit.place ??= this.geo.locate(visit));
  }

  /**
   * The facts of a visit for the rules (visit-facts.ts), at `at`: the dry-run resolver builds a
   * visit of its own and asks the same.
   */
  factsOf(visit: Visit, at: number, scanCount?: number): ScanFacts {
    return new VisitFacts(visit, at, this.lookups, scanCount);
  }

  /** A code's exact scan count: stored, and pending in the scan buffer (what `scans` shows). */
  async exactScanCount(codeId: QrCodeId): Promise<number> {
    const { result, pending } = await this.scans.readWithPending(
      () => this.linksRepository.storedScans(codeId),
      () => [codeId],
    );
    return result + (pending.get(codeId) ?? 0);
  }

  /**
   * What the redirect host would answer a scan of `target` (the dry-run resolver,
   * docs/smart-links.md#dry-run-resolver): the same decision as a real scan's, with every rule
   * before the match explained; the scan limit is compared, never reserved, and nothing is counted.
   */
  async simulate(target: LinkTarget, visit: Visit, at: number, passwordEntered: boolean): Promise<SimulatedScan> {
    const scans = await this.exactScanCount(target.codeId);
    const { decision, misses } = decideLink(target, this.factsOf(visit, at, scans), {
      passwordAccepted: passwordEntered || target.passwordHash === null,
      explain: true,
    });
    const counted = (decision.kind === 'redirect' || decision.kind === 'page') && target.maxScans !== null && !this.isBot(visit);
    const limitReached = counted && (await this.linksRepository.reservedScans(target.codeId)) >= (target.maxScans ?? Infinity);
    return { decision, misses, limitReached, fallbackLocation: target.fallbackLocation, scans };
  }

  private answerFor(target: LinkTarget | null, visit: Visit): RedirectAnswer | Promise<RedirectAnswer> {
    if (target?.rules?.needsScanCount) return this.exactScanCount(target.codeId).then((count) => this.decide(target, visit, count));
    return this.decide(target, visit);
  }

  private decide(target: LinkTarget | null, visit: Visit, scanCount?: number): RedirectAnswer | Promise<RedirectAnswer> {
    const now = Date.now();
    // Most links answer every live visit alike: decided as the link was loaded (steadyDecision), no facts read.
    if (target?.steady && linkStatus(target, now) === 'active') return this.serve(target, visit, target.steady);
    const cookies = headerText(visit.headers.cookie) ?? undefined;
    const passwordAccepted = target === null || this.passwords.accepts(target, visit.shortCode, cookies, now);
    const { decision } = decideLink(target, this.factsOf(visit, now, scanCount), { passwordAccepted });
    if (target === null) return this.outcome('not_found', unknownCodeAnswer(visit.domain));
    switch (decision.kind) {
      case 'not_found':
        return this.outcome('not_found', unknownCodeAnswer(visit.domain));
      case 'paused':
        return this.outcome('paused', { kind: 'page', status: 410, html: PAUSED_PAGE });
      case 'expired':
        return this.outcome('expired', { kind: 'page', status: 410, html: EXPIRED_PAGE });
      case 'password_required':
        return this.outcome('password', { kind: 'page', status: 200, html: passwordPage(visit.url, false), csp: PASSWORD_PAGE_CSP });
      case 'refused':
        return this.outcome('refused', { kind: 'page', status: 404, html: NOT_FOUND_PAGE });
      case 'redirect':
      case 'page':
        return this.serve(target, visit, decision);
    }
  }

  /** A live link's target or page, once its scan limit (if any) lets the scan through. */
  private serve(target: LinkTarget, visit: Visit, decision: ServedDecision): RedirectAnswer | Promise<RedirectAnswer> {
    const armIndex = decision.kind === 'redirect' ? decision.armIndex : null;
    visit.matched = decision.ruleIndex === null && armIndex === null ? NO_RULE_MATCHED : { ruleIndex: decision.ruleIndex, armIndex };
    const served: RedirectAnswer =
      decision.kind === 'redirect'
        ? { kind: 'redirect', location: decision.location, scanOf: target }
        : { kind: 'page', status: 200, html: this.pageOf(target, target.type as LandingType, visit.shortCode), scanOf: target };
    const outcome = decision.kind === 'redirect' ? 'redirected' : 'page';
    // Only a scan uses up a limit: link checkers (HEAD) and bots are answered without one.
    if (target.maxScans === null || !visit.countable || this.isBot(visit)) return this.outcome(outcome, served);
    return this.linksRepository
      .reserveScan(target.codeId, target.maxScans)
      .then((reserved) => (reserved ? this.outcome(outcome, served) : this.outcome('limit_reached', limitReachedAnswer(target))));
  }

  private isBot(visit: Visit): boolean {
    return visit.userAgent === null || this.agents.recognise(visit.userAgent).isBot;
  }

  /**
   * A file a page offers (`contact.vcf`, `event.ics`). Downloads are not scans: nothing is recorded
   * or counted. Paused, expired and unknown codes answer as their page does.
   */
  download(shortCode: string, name: LandingFileName, domain?: ServedDomain): RedirectAnswer | Promise<RedirectAnswer> {
    if (domain?.served === false || !SHORT_CODE_PATTERN.test(shortCode)) return this.fileFor(null, name);
    const cached = this.links.cached(shortCode, domain?.id);
    if (cached !== undefined) return this.fileFor(cached, name);
    return this.links.resolve(shortCode, domain?.id).then((target) => this.fileFor(target, name));
  }

  private fileFor(target: LinkTarget | null, name: LandingFileName): RedirectAnswer {
    const status = target && linkStatus(target);
    if (status === 'paused') return { kind: 'page', status: 410, html: PAUSED_PAGE };
    if (status === 'expired') return { kind: 'page', status: 410, html: EXPIRED_PAGE };
    const file = target && landingFile(name, target.type, target.content, target.codeId, Date.now());
    return file ? { kind: 'file', file } : { kind: 'page', status: 404, html: NOT_FOUND_PAGE };
  }

  private pageOf(target: LinkTarget, type: LandingType, shortCode: string): Buffer {
    const kept = this.pages.get(shortCode);
    if (kept !== undefined && kept.target === target) return kept.page;
    const page = Buffer.from(landingPage(type, target.content, shortCode));
    this.pages.set(shortCode, { target, page });
    return page;
  }

  private outcome(outcome: string, answer: RedirectAnswer): RedirectAnswer {
    this.metrics.redirects.inc(outcome);
    return answer;
  }
}

/** Past the scan limit: the fallback URL, or the "limit reached" page. */
function limitReachedAnswer(target: LinkTarget): RedirectAnswer {
  return target.fallbackLocation ? { kind: 'redirect', location: target.fallbackLocation } : { kind: 'page', status: 410, html: LIMIT_REACHED_PAGE };
}

function headerText(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value.join(', ') : value) ?? null;
}
