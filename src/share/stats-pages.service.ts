import { Injectable } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { FieldError } from '../common/validation/field-error';
import { ScanAnalyticsService } from '../analytics/scan-analytics.service';
import { FoldersService } from '../folders/folders.service';
import { ImagesService } from '../images/images.service';
import { type NearCache, NearCacheRegistry } from '../infra/cache/near-cache';
import { QrCodesService } from '../qrcodes/qr-codes.service';
import type { ShareLinkRecord } from './share-links.repository';
import { ShareLinksRepository } from './share-links.repository';
import { ShareTokens } from './share-tokens';
import { statsPageHtml, type StatsPageData } from './stats-page/stats-page';
import { parseStatsQuery, type StatsQuery } from './stats-page/stats-query';
import type { BreakdownSection, StatsSection } from './stats-page/stats-sections';

const DAY_MS = 86_400_000;
const PAGE_IMAGE_SIZE = 224;
/**
 * How long one page's answer (a link, format, range, interval and zone) is reused: its numbers may
 * be this much behind (docs/sharing.md#stats-pages). Requests arriving while it is being computed
 * wait for that computation instead of starting their own.
 */
export const STATS_ANSWER_TTL_MS = 60_000;
/** Answers kept per instance (a year's page is ~100 KB). */
const STATS_ANSWERS_KEPT = 200;

export type StatsAnswer =
  { kind: 'page'; html: string } | { kind: 'json'; body: StatsJson } | { kind: 'invalid'; errors: FieldError[] } | { kind: 'not_found' };

/** The analytics a share link shows, in the API's names, only its sections. */
export type StatsJson = { name: string; kind: string; from: string; to: string; interval: string; tz: string } & Partial<
  Record<StatsSection, unknown>
>;

type AnalyticsView = {
  from: string;
  to: string;
  totals: { scans: number; unique_visitors: number };
  series: Array<{ start: string; scans: number; unique_visitors: number }>;
  breakdowns: Record<'device' | 'os' | 'browser' | 'referrer', Array<{ value: string; scans: number }>>;
  by_country: Array<{ value: string; scans: number }>;
};

const BREAKDOWN_SOURCES: Record<BreakdownSection, (view: AnalyticsView) => Array<{ value: string; scans: number }>> = {
  countries: (view) => view.by_country,
  devices: (view) => view.breakdowns.device,
  os: (view) => view.breakdowns.os,
  browsers: (view) => view.breakdowns.browser,
  referrers: (view) => view.breakdowns.referrer,
};

/**
 * Public stats pages (`/s/<token>`, docs/sharing.md#stats-pages): a token this deployment signed,
 * for a link neither revoked nor expired, read per request (a revocation holds at once on every
 * instance); the numbers are the analytics API's for the same window and zone, computed once a
 * minute per page and instance (STATS_ANSWER_TTL_MS): the link is still read on every request.
 */
@Injectable()
export class StatsPagesService {
  private readonly answers: NearCache<Promise<StatsAnswer>>;

  constructor(
    private readonly tokens: ShareTokens,
    private readonly links: ShareLinksRepository,
    private readonly analytics: ScanAnalyticsService,
    private readonly codes: QrCodesService,
    private readonly folders: FoldersService,
    private readonly images: ImagesService,
    nearCaches: NearCacheRegistry,
  ) {
    this.answers = nearCaches.cache('stats-page-answers', { maxEntries: STATS_ANSWERS_KEPT, ttlMs: STATS_ANSWER_TTL_MS });
  }

  /** The link behind a token, if it stands; null answers 404 whatever the reason (unknown, altered, revoked, expired). */
  async standingLink(token: string, now: Date): Promise<ShareLinkRecord | null> {
    const id = this.tokens.read(token);
    if (!id) return null;
    const link = await this.links.findByToken(id);
    if (!link || link.revokedAt || (link.expiresAt && link.expiresAt.getTime() <= now.getTime())) return null;
    return link;
  }

  /** The page of a standing link: the answer of this minute if one was computed (or is being computed), else a new one. */
  answer(link: ShareLinkRecord, token: string, rawQuery: Record<string, unknown>, format: 'html' | 'json', now: Date): Promise<StatsAnswer> {
    const check = parseStatsQuery(rawQuery);
    if (!check.ok) return Promise.resolve({ kind: 'invalid', errors: check.errors });
    const { days, interval, timeZone } = check.query;
    const key = [link.id, format, days, interval, timeZone, Math.floor(now.getTime() / STATS_ANSWER_TTL_MS)].join('|');
    const kept = this.answers.get(key);
    if (kept) return kept;
    const computed = this.compute(link, token, check.query, format, now);
    this.answers.set(key, computed);
    // A failure is not kept: the next request tries again.
    computed.catch(() => this.answers.deleteLocal(key));
    return computed;
  }

  private async compute(link: ShareLinkRecord, token: string, query: StatsQuery, format: 'html' | 'json', now: Date): Promise<StatsAnswer> {
    const { name, kind, view } = await this.read(link, query, now);
    const sections = new Set(link.fields);
    if (format === 'json') return { kind: 'json', body: statsJson(name, kind, query, view, sections) };
    const data: StatsPageData = {
      name,
      kind,
      imageSvg: link.qrCodeId ? await this.codeImage(link.accountId, link) : undefined,
      window: {
        from: new Date(view.from),
        to: new Date(view.to),
        interval: query.interval,
        timeZone: query.timeZone,
        days: query.days,
      },
      totals: { scans: view.totals.scans, uniqueVisitors: view.totals.unique_visitors },
      series: view.series.map((bucket) => ({ start: new Date(bucket.start), scans: bucket.scans, uniqueVisitors: bucket.unique_visitors })),
      breakdowns: Object.fromEntries(Object.entries(BREAKDOWN_SOURCES).map(([section, source]) => [section, source(view)])),
      sections,
      pagePath: `/s/${token}`,
      jsonPath: `/s/${token}.json`,
    };
    return { kind: 'page', html: statsPageHtml(data) };
  }

  private async read(link: ShareLinkRecord, query: StatsQuery, now: Date): Promise<{ name: string; kind: string; view: AnalyticsView }> {
    const window = {
      from: new Date(now.getTime() - query.days * DAY_MS).toISOString(),
      to: now.toISOString(),
      interval: query.interval,
      tz: query.timeZone,
    };
    if (link.qrCodeId) {
      const code = await this.codes.findOwned(link.accountId, link.qrCodeId);
      return { name: code.name, kind: 'QR code', view: await this.analytics.scans(link.accountId, link.qrCodeId, window, now) };
    }
    if (link.tagId)
      return { name: link.tagName ?? '', kind: 'Tag', view: await this.analytics.account(link.accountId, window, now, { tagId: link.tagId }) };
    const folderId = link.folderId as NonNullable<ShareLinkRecord['folderId']>;
    const folder = await this.folders.get(link.accountId, folderId);
    return { name: folder.name, kind: 'Folder', view: await this.analytics.account(link.accountId, { ...window, folder_id: folderId }, now) };
  }

  private async codeImage(accountId: AccountId, link: ShareLinkRecord): Promise<string | undefined> {
    if (!link.qrCodeId) return undefined;
    const image = await this.images.image(accountId, link.qrCodeId, PAGE_IMAGE_SIZE);
    return image.svg?.toString('utf8').replace(/^<\?xml[^>]*>\s*/, '');
  }
}

function statsJson(name: string, kind: string, query: StatsQuery, view: AnalyticsView, sections: ReadonlySet<StatsSection>): StatsJson {
  const body: StatsJson = { name, kind, from: view.from, to: view.to, interval: query.interval, tz: query.timeZone };
  if (sections.has('totals')) body.totals = view.totals;
  if (sections.has('series')) body.series = view.series;
  for (const [section, source] of Object.entries(BREAKDOWN_SOURCES) as Array<[BreakdownSection, (view: AnalyticsView) => unknown]>)
    if (sections.has(section)) body[section] = source(view);
  return body;
}
