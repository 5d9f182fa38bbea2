import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { createLru } from '../infra/cache/lru';
import { MetricsService } from '../infra/observability/metrics.service';
import type { ServedDomain } from '../domains';
import {
  LinkDecisions,
  LinkPasswordGate,
  type LinkTarget,
  linkStatus,
  type ServedDecision,
  type Visit,
  type VisitDecision,
  VisitFactsReader,
} from '../smart-links';
import { unknownCodeAnswer } from './domain-answers';
import { landingFile, landingPage, type LandingFileName, type LandingType } from './landing/landing-page';
import { LIMIT_REACHED_PAGE, passwordPage, TOO_MANY_ATTEMPTS_PAGE } from './landing/link-control-pages';
import { PASSWORD_PAGE_CSP } from './landing/page-style';
import { EXPIRED_PAGE, NOT_FOUND_PAGE, PAUSED_PAGE } from './landing/status-pages';
import type { RedirectAnswer } from './redirect-answer';
import { linkPreviewHtml, shortLinkOf } from './previews/link-preview-answer';
import { isPreviewBot } from './previews/preview-bots';

/** About 60 MB of pages at most per instance (5-8 KB each). */
const MAX_KEPT_PAGES = 10_000;
/** A kept page is checked against the current link on every use; its expiry only frees memory. */
const KEPT_PAGE_TTL_MS = 10 * 60_000;

/**
 * The answer step of a scan of a short link (docs/scans-and-privacy.md, docs/smart-links.md): the
 * link and its decision come from smart links (LinkDecisions: state, password, rules, scan limit);
 * here each decision becomes what the visitor gets: a redirect, the landing page, or the page of
 * an unknown, paused, expired, protected or used-up link. The host sends it and then records the
 * scan (ScanRecorder). Downloads a page offers and the password form's post are answered here too.
 */
@Injectable()
export class RedirectService {
  /**
   * Pages of live links by short code, each kept with the link object it was built from: a change
   * of the code replaces that object in the near cache, so a kept page is served only while its
   * version is the current one. Bounded apart from the links (pages are kilobytes, links are not).
   */
  private readonly pages = createLru<{ target: LinkTarget; page: Buffer }>({ max: MAX_KEPT_PAGES, ttl: KEPT_PAGE_TTL_MS });

  constructor(
    private readonly decisions: LinkDecisions,
    private readonly passwords: LinkPasswordGate,
    private readonly metrics: MetricsService,
    private readonly facts: VisitFactsReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The answer to a visit: the link of its code, its decision, its answer. At once when the link is
   * in this instance's memory and needs no database step (nearly every scan; no promise and no
   * microtask on the hot path), else once the decision is made.
   */
  answer(visit: Visit): RedirectAnswer | Promise<RedirectAnswer> {
    const target = this.decisions.linkOf(visit.shortCode, visit.domain);
    return target instanceof Promise ? target.then((found) => this.answerLink(found, visit)) : this.answerLink(target, visit);
  }

  /**
   * The password form's post: limited attempts, then a cookie for the link and a 303 back to the
   * scanned link (whose GET is then the scan), or the form again after a wrong password.
   */
  async submitPassword(visit: Visit, password: string): Promise<RedirectAnswer> {
    const target = await this.decisions.linkOf(visit.shortCode, visit.domain);
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
   * A file a page offers (`contact.vcf`, `event.ics`). Downloads are not scans: nothing is recorded
   * or counted. Paused, expired and unknown codes answer as their page does.
   */
  download(shortCode: string, name: LandingFileName, domain?: ServedDomain): RedirectAnswer | Promise<RedirectAnswer> {
    const target = this.decisions.linkOf(shortCode, domain);
    return target instanceof Promise ? target.then((found) => this.fileFor(found, name)) : this.fileFor(target, name);
  }

  private answerLink(target: LinkTarget | null, visit: Visit): RedirectAnswer | Promise<RedirectAnswer> {
    const decision = this.decisions.decide(target, visit);
    return decision instanceof Promise ? decision.then((made) => this.answerOf(target, visit, made)) : this.answerOf(target, visit, decision);
  }

  private answerOf(target: LinkTarget | null, visit: Visit, decision: VisitDecision): RedirectAnswer {
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
      case 'limit_reached':
        // Past the scan limit: the fallback URL, or the "limit reached" page.
        return this.outcome(
          'limit_reached',
          target.fallbackLocation ? { kind: 'redirect', location: target.fallbackLocation } : { kind: 'page', status: 410, html: LIMIT_REACHED_PAGE },
        );
      case 'redirect':
        if (target.preview !== null && this.isPreviewBot(visit)) return this.previewOf(target, visit, decision);
        return this.outcome('redirected', { kind: 'redirect', location: decision.location, scanOf: target, decision });
      case 'page': {
        if (target.preview !== null && this.isPreviewBot(visit)) return this.previewOf(target, visit, decision);
        const html = this.pageOf(target, target.type as LandingType, visit.shortCode);
        return this.outcome('page', { kind: 'page', status: 200, html, scanOf: target, decision });
      }
    }
  }

  /**
   * A live code with a preview, for its preview image (`/r/<code>/qr.png`, served by sharing);
   * null: unknown, paused, expired, protected by a password, or without a preview.
   */
  async previewTarget(shortCode: string, domain: ServedDomain | undefined): Promise<LinkTarget | null> {
    const target = await this.decisions.linkOf(shortCode, domain);
    return target && target.preview !== null && target.passwordHash === null && linkStatus(target) === 'active' ? target : null;
  }

  /** A chat app's preview bot (docs/sharing.md#link-previews); asked only of links with a preview, so people's scans never pay for it. */
  private isPreviewBot(visit: Visit): boolean {
    return visit.userAgent !== null && this.facts.isBot(visit) && isPreviewBot(visit.userAgent);
  }

  /** The preview page instead of the redirect; recorded as the bot's visit it is (never counted as a scan). */
  private previewOf(target: LinkTarget, visit: Visit, decision: ServedDecision): RedirectAnswer {
    const html = linkPreviewHtml(target, shortLinkOf(visit.shortCode, visit.domain, this.config.redirectUrl));
    return this.outcome('preview', { kind: 'page', status: 200, html, scanOf: target, decision });
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
