import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { MetricsService } from '../infra/observability/metrics.service';
import { SHORT_CODE_PATTERN } from '../qrcodes/short-code';
import { BotAgents } from './bot-agents';
import { contentPage, expiredPage, notFoundPage, pausedPage } from './landing-page';
import { LinkTarget, linkState } from './link-target';
import { LinkResolver } from './link-resolver.service';
import { ScanBuffer } from './scan-buffer.service';
import { ScanStoreRepository } from './scan-store.repository';
import { dailyVisitorKey, visitorHash } from './visitor-hash';

export interface Visit {
  shortCode: string;
  ip: string;
  userAgent: string | null;
  referrer: string | null;
  /** HEAD requests (link checkers) are answered but not recorded. */
  countable: boolean;
}

export type RedirectAnswer =
  | { kind: 'redirect'; location: string }
  | { kind: 'page'; status: 200 | 404 | 410; html: string };

/**
 * Answers a scan of a short link (design §6): url codes redirect, other types get their page,
 * paused/expired codes a 410 page, unknown codes a 404 page. Each completed answer of a live code
 * is recorded once; bots are answered and recorded as bots, not counted.
 */
@Injectable()
export class RedirectService implements OnModuleInit {
  private secret = '';
  private dailyKey = { day: -1, key: '' };
  private readonly bots = new BotAgents();

  constructor(
    private readonly links: LinkResolver,
    private readonly scans: ScanBuffer,
    private readonly store: ScanStoreRepository,
    private readonly metrics: MetricsService,
  ) {}

  async onModuleInit(): Promise<void> {
    this.secret = await this.store.visitorSecret();
  }

  /**
   * The answer to a visit: at once when the link is in this instance's near cache (nearly every
   * scan; no promise and no microtask on the hot path), else once it is looked up.
   */
  answer(visit: Visit): RedirectAnswer | Promise<RedirectAnswer> {
    if (!SHORT_CODE_PATTERN.test(visit.shortCode)) return this.answerFor(null, visit);
    const cached = this.links.cached(visit.shortCode);
    if (cached !== undefined) return this.answerFor(cached, visit);
    return this.links.resolve(visit.shortCode).then((target) => this.answerFor(target, visit));
  }

  private answerFor(target: LinkTarget | null, visit: Visit): RedirectAnswer {
    if (!target) return this.outcome('not_found', { kind: 'page', status: 404, html: notFoundPage() });
    const state = linkState(target);
    if (state === 'paused') return this.outcome('paused', { kind: 'page', status: 410, html: pausedPage() });
    if (state === 'expired') return this.outcome('expired', { kind: 'page', status: 410, html: expiredPage() });

    let answer: RedirectAnswer;
    if (target.type === 'url') {
      if (!target.safeLocation) return this.outcome('refused', { kind: 'page', status: 404, html: notFoundPage() });
      answer = { kind: 'redirect', location: target.safeLocation };
    } else {
      answer = { kind: 'page', status: 200, html: contentPage(target) };
    }
    if (visit.countable) {
      const now = Date.now();
      this.scans.record({
        eventId: randomUUID(),
        codeId: target.codeId,
        at: now,
        userAgent: visit.userAgent,
        referrer: visit.referrer,
        visitorHash: visitorHash(this.visitorKey(now), visit.ip, visit.userAgent),
        isBot: this.bots.isBot(visit.userAgent),
      });
    }
    return this.outcome(answer.kind === 'redirect' ? 'redirected' : 'page', answer);
  }

  private visitorKey(now: number): string {
    const day = Math.floor(now / 86_400_000);
    if (this.dailyKey.day !== day) this.dailyKey = { day, key: dailyVisitorKey(this.secret, now) };
    return this.dailyKey.key;
  }

  private outcome(outcome: string, answer: RedirectAnswer): RedirectAnswer {
    this.metrics.redirects.inc({ outcome });
    return answer;
  }
}
