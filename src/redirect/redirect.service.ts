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
import { ScanBuffer } from '../scans/scan-buffer.service';

/** About 60 MB of pages at most per instance (5-8 KB each). */
const MAX_KEPT_PAGES = 10_000;
/** A kept page is checked against the current link on every use; its expiry only frees memory. */
const KEPT_PAGE_TTL_MS = 10 * 60_000;

export interface Visit {
  shortCode: string;
  ip: string;
  /** The request's headers as they came (the trusted country header is read from them); never stored. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  userAgent: string | null;
  referrer: string | null;
  /** HEAD requests (link checkers) are answered but not recorded. */
  countable: boolean;
  /** Where the visit comes from, once looked up (placeOf): one lookup per scan, however many read it. */
  place?: GeoPlace;
  /** The branded domain the request came to; left out: the default redirect host. */
  domain?: ServedDomain;
}

/** An answer to a visit; `scanOf` names the code whose scan it is, once the answer has been sent (recordScan). */
export type RedirectAnswer =
  | { kind: 'redirect'; location: string; scanOf?: LinkTarget }
  | { kind: 'page'; status: 200 | 404 | 410; html: string | Buffer; scanOf?: LinkTarget }
  | { kind: 'file'; file: LandingFile };

/**
 * Answers a scan of a short link (docs/scans-and-privacy.md): url codes redirect, other types get
 * their landing page, paused/expired codes a 410 page, unknown codes a 404 page. A scan is recorded
 * only once its answer (a redirect or the landing page of a live code) has been sent; bots are
 * answered and recorded as bots, not counted. Downloads a page offers are not scans.
 */
@Injectable()
export class RedirectService {
  private readonly agents = new KnownAgents();
  /**
   * Pages of live links by short code, each kept with the link object it was built from: a change
   * of the code replaces that object in the near cache, so a kept page is served only while its
   * version is the current one. Bounded apart from the links (pages are kilobytes, links are not).
   */
  private readonly pages = createLru<{ target: LinkTarget; page: Buffer }>({ max: MAX_KEPT_PAGES, ttl: KEPT_PAGE_TTL_MS });

  constructor(
    private readonly links: LinkResolver,
    private readonly scans: ScanBuffer,
    private readonly metrics: MetricsService,
    private readonly geo: GeoLocator,
  ) {}

  /**
   * The answer to a visit: at once when the link is in this instance's near cache (nearly every
   * scan; no promise and no microtask on the hot path), else once it is looked up.
   */
  answer(visit: Visit): RedirectAnswer | Promise<RedirectAnswer> {
    const { domain } = visit;
    // A pending domain serves nothing; a malformed code names nothing on any host.
    if (domain?.served === false || !SHORT_CODE_PATTERN.test(visit.shortCode)) return this.answerFor(null, visit.shortCode, domain);
    const cached = this.links.cached(visit.shortCode, domain?.id);
    if (cached !== undefined) return this.answerFor(cached, visit.shortCode, domain);
    return this.links.resolve(visit.shortCode, domain?.id).then((target) => this.answerFor(target, visit.shortCode, domain));
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

  private answerFor(target: LinkTarget | null, shortCode: string, domain?: ServedDomain): RedirectAnswer {
    if (!target) return this.outcome('not_found', unknownCodeAnswer(domain));
    const status = linkStatus(target);
    if (status === 'paused') return this.outcome('paused', { kind: 'page', status: 410, html: PAUSED_PAGE });
    if (status === 'expired') return this.outcome('expired', { kind: 'page', status: 410, html: EXPIRED_PAGE });
    if (target.type !== 'url')
      return this.outcome('page', { kind: 'page', status: 200, html: this.pageOf(target, target.type, shortCode), scanOf: target });
    if (!target.safeLocation) return this.outcome('refused', { kind: 'page', status: 404, html: NOT_FOUND_PAGE });
    return this.outcome('redirected', { kind: 'redirect', location: target.safeLocation, scanOf: target });
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
