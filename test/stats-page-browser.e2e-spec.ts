import AxeBuilder from '@axe-core/playwright';
import { load } from 'cheerio';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { ScanBatchWriter } from '../src/scans/scan-batch';
import type { ScanEvent } from '../src/scans/scan-event';
import { ScanStoreRepository } from '../src/scans/scan-store.repository';
import { VisitorHasher } from '../src/scans/visitor-hash';
import { launchChromium, listenOnLoopback, VIEWPORTS, type ViewportName } from './support/browser';
import { describeWhen, HAS_CHROMIUM, HAS_POSTGRES } from './support/environment';
import { auth, createQr, expectStatus, GENEROUS_RATE_LIMIT, recordedScan } from './support/factories';
import { compareWithReference, pixelDifference } from './support/reference-screenshots';
import { startTestApp, type TestApp } from './support/test-app';
import { USER_AGENTS } from './support/user-agents';

jest.setTimeout(120_000);

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The app's clock stands still here: the page's window, its dates and its charts are the same on every run. */
const FIXED_NOW = Date.parse('2026-11-01T09:30:00.000Z');
/** Share of a chart's pixels that may differ from its reference (anti-aliasing); another data set differs by far more. */
const SCREENSHOT_TOLERANCE = 0.002;
const AGENTS = [USER_AGENTS.iphone, USER_AGENTS.pixel, USER_AGENTS.windowsEdge, USER_AGENTS.macFirefox, USER_AGENTS.samsung];
const COUNTRIES = ['DE', 'FR', 'IN', 'US', null];
const REFERRERS = [null, 'https://news.example/spring', 'https://mail.example/'];

/**
 * The fixed data set: 29 days of scans before FIXED_NOW, 1 to 9 a day at hours that vary, from five
 * kinds of phone and desktop, four countries and unknown, three referrers, three scans a visitor; and bots.
 */
function fixedScans(codeId: string): ScanEvent[] {
  const events: ScanEvent[] = [];
  for (let day = 0; day < 29; day++) {
    const count = 1 + ((day * 7) % 9);
    for (let i = 0; i < count; i++) {
      const n = day * 11 + i;
      // Three scans a visitor (the same address and phone): unique visitors are a third of the scans.
      const visitor = Math.floor(i / 3);
      const agent = AGENTS[(day + visitor) % AGENTS.length];
      events.push(
        recordedScan(codeId, {
          at: FIXED_NOW - day * DAY_MS - ((i * 5 + day * 3) % 23) * HOUR_MS - 60_000,
          userAgent: agent.ua,
          country: COUNTRIES[n % COUNTRIES.length],
          referrer: REFERRERS[n % REFERRERS.length],
          ip: `198.51.100.${visitor}`,
        }),
      );
    }
  }
  for (let day = 0; day < 3; day++) {
    events.push(recordedScan(codeId, { at: FIXED_NOW - day * DAY_MS - HOUR_MS, userAgent: USER_AGENTS.slackbot.ua, isBot: true }));
  }
  return events;
}

type Json = Record<string, any>;

/**
 * The public stats page in a real browser (Debian's Chromium through playwright-core, one browser
 * for the file) against the real app on a loopback socket: axe at a phone's and a desktop's width,
 * text alternatives of the charts, the page with scripts off, screenshots of the charts of a fixed
 * data set against committed references (test/visual/stats-chart/), and the charts' numbers against
 * the analytics API for the same window and zone.
 */
describeWhen(HAS_CHROMIUM && HAS_POSTGRES)('the stats page in a browser (e2e)', () => {
  let t: TestApp;
  let key: string;
  let origin: string;
  let browser: Browser;
  let code: Json;
  let path: string;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT, { clock: { now: () => new Date(FIXED_NOW) } });
    ({ key } = await t.newAccount());
    origin = await listenOnLoopback(t.app);
    browser = await launchChromium();
    code = await createQr(t, key, { name: 'Spring menu', is_dynamic: true, content: { url: 'https://example.com/spring' } });
    const stored = await t.app.get(ScanStoreRepository).storeBatches([new ScanBatchWriter(t.app.get(VisitorHasher)).write(fixedScans(code.id))]);
    expect(stored).toBeGreaterThan(100);
    const link = await t.request({ method: 'POST', url: `/api/v1/qrcodes/${code.id}/share-links`, headers: auth(key), payload: {} });
    expectStatus(link, 201);
    path = new URL(link.json<{ url: string }>().url).pathname;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function openPage(options: BrowserContextOptions, query: string): Promise<{ page: Page; close: () => Promise<void> }> {
    const context = await browser.newContext(options);
    // Nothing leaves the machine: the page loads nothing from elsewhere, and this would show it.
    const outside: string[] = [];
    await context.route(
      (url) => url.origin !== origin,
      (route) => {
        outside.push(route.request().url());
        return route.abort();
      },
    );
    const page = await context.newPage();
    const response = await page.goto(`${origin}${path}${query}`);
    expect(response?.status()).toBe(200);
    await page.waitForLoadState('load');
    return {
      page,
      close: async () => {
        expect(outside).toEqual([]);
        await context.close();
      },
    };
  }

  describe.each(['phone', 'desktop'] as const)('at %s width', (viewport: ViewportName) => {
    it('has no serious or critical axe finding, no sideways scrolling, and a title and a description on every chart', async () => {
      const { page, close } = await openPage({ ...VIEWPORTS[viewport], timezoneId: 'UTC' }, '?tz=UTC');
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
      expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
      expect(results.passes.map((pass) => pass.id)).toEqual(expect.arrayContaining(['svg-img-alt', 'color-contrast', 'label']));
      const layout = await page.evaluate(() => ({
        width: window.innerWidth,
        scrollWidth: document.documentElement.scrollWidth,
        charts: [...document.querySelectorAll('svg[role="img"]')].map((svg) => {
          const [title, desc] = (svg.getAttribute('aria-labelledby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '');
          const box = svg.getBoundingClientRect();
          return { title, desc, width: box.width, right: box.right };
        }),
      }));
      expect(layout.width).toBe(VIEWPORTS[viewport].viewport.width);
      expect(layout.scrollWidth).toBeLessThanOrEqual(layout.width);
      expect(layout.charts.map((chart) => chart.title)).toEqual([
        'Scans per day',
        'Top countries',
        'Devices',
        'Operating systems',
        'Browsers',
        'Referrers',
      ]);
      for (const chart of layout.charts) {
        expect(chart.desc.length).toBeGreaterThan(20);
        expect(chart.right).toBeLessThanOrEqual(layout.width);
      }
      await close();
    });
  });

  it("reloads once in the viewer's zone when scripts run", async () => {
    // (Not Asia/Kolkata: Chromium's ICU names it by its old alias, Asia/Calcutta.)
    const { page, close } = await openPage({ ...VIEWPORTS.desktop, timezoneId: 'Europe/Berlin' }, '');
    await page.waitForURL(/tz=Europe%2FBerlin/);
    expect(await page.locator('input[name="tz"]').inputValue()).toBe('Europe/Berlin');
    await close();
  });

  it('works with scripts off: content, charts and tables shown, the form changes the range', async () => {
    const { page, close } = await openPage({ ...VIEWPORTS.phone, timezoneId: 'Asia/Kolkata', javaScriptEnabled: false }, '');
    // No reload into the viewer's zone without scripts: UTC, with the zone field to change it.
    expect(page.url()).toBe(`${origin}${path}`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Spring menu');
    expect(await page.locator('.tile .number').first().textContent()).toBe('144');
    const charts = page.locator('svg[role="img"]');
    expect(await charts.count()).toBe(6);
    for (let i = 0; i < 6; i++) {
      const chart = charts.nth(i);
      expect(await chart.isVisible()).toBe(true);
      const box = await chart.boundingBox();
      expect(box!.width).toBeGreaterThan(200);
      expect(box!.height).toBeGreaterThan(40);
    }
    expect(await page.locator('section[aria-labelledby="h-countries"] tbody tr').count()).toBe(5);
    await page.locator('select[name="days"]').selectOption('7');
    await page.locator('input[name="tz"]').fill('America/St_Johns');
    await Promise.all([page.waitForURL(/days=7/), page.locator('button[type="submit"]').click()]);
    expect(page.url()).toContain('tz=America%2FSt_Johns');
    await expect(page.locator('.sub').textContent()).resolves.toContain('America/St_Johns');
    await close();
  });

  it('draws the charts of the fixed data set as the committed references show them (test/visual/stats-chart/)', async () => {
    const { page, close } = await openPage({ ...VIEWPORTS.desktop, timezoneId: 'UTC' }, '?tz=UTC&days=30&interval=day');
    const shoot = (section: string) => page.locator(`section[aria-labelledby="h-${section}"] svg[role="img"]`).screenshot();
    const shots = { series: await shoot('series'), countries: await shoot('countries'), devices: await shoot('devices') };
    for (const [name, png] of Object.entries(shots)) {
      const comparison = compareWithReference('stats-chart', `${name}-desktop`, png);
      expect({ name, differing: comparison.differing <= SCREENSHOT_TOLERANCE ? 'within tolerance' : comparison.differing }).toEqual({
        name,
        differing: 'within tolerance',
      });
    }
    // The comparison can fail: the same scans cut in another zone draw another series.
    await page.goto(`${origin}${path}?tz=Pacific/Kiritimati&days=30&interval=day`);
    const shifted = await shoot('series');
    expect(pixelDifference(shots.series, shifted)).toBeGreaterThan(SCREENSHOT_TOLERANCE * 5);
    await close();
  });

  describe.each([
    ['UTC, by day', 'days=30&interval=day&tz=UTC'],
    ['Asia/Kolkata (+05:30), by hour', 'days=7&interval=hour&tz=Asia/Kolkata'],
    ['America/St_Johns (-03:30), by week', 'days=90&interval=week&tz=America/St_Johns'],
  ])('in %s', (_zone, query) => {
    it('draws and answers (as JSON) the numbers of /scans for the same window and zone', async () => {
      const json = await t.request({ method: 'GET', url: `${path}.json?${query}` });
      expectStatus(json, 200);
      const body = json.json<Json>();
      const params = new URLSearchParams(query);
      const window = new URLSearchParams({ from: body.from, to: body.to, interval: params.get('interval')!, tz: params.get('tz')! });
      const scans = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}/scans?${window.toString()}`, headers: auth(key) });
      expectStatus(scans, 200);
      const analytics = scans.json<Json>();
      expect(analytics.totals.scans).toBeGreaterThan(0);
      expect(body.totals).toEqual(analytics.totals);
      expect(body.series).toEqual(analytics.series);
      expect(body.countries).toEqual(analytics.by_country);
      expect(body.devices).toEqual(analytics.breakdowns.device);
      expect(body.os).toEqual(analytics.breakdowns.os);
      expect(body.browsers).toEqual(analytics.breakdowns.browser);
      expect(body.referrers).toEqual(analytics.breakdowns.referrer);

      const $ = load((await t.request({ method: 'GET', url: `${path}?${query}` })).body);
      const texts = (section: string) =>
        $(`section[aria-labelledby="h-${section}"] svg text`)
          .map((_, element) => $(element).text())
          .get();
      const pairs = (rows: Array<{ value: string; scans: number }>) => rows.flatMap((row) => [row.value, String(row.scans)]);
      expect(texts('countries')).toEqual(pairs(analytics.by_country));
      expect(texts('devices')).toEqual(pairs(analytics.breakdowns.device));
      expect(texts('os')).toEqual(pairs(analytics.breakdowns.os));
      expect(texts('browsers')).toEqual(pairs(analytics.breakdowns.browser));
      expect(texts('referrers')).toEqual(pairs(analytics.breakdowns.referrer));
      const series = analytics.series as Array<{ scans: number; unique_visitors: number }>;
      const description = $('#chart-series-desc').text();
      const unit = params.get('interval') === 'day' ? 'days' : `${params.get('interval')}s`;
      expect(description).toContain(`${analytics.totals.scans} scans over ${series.length} ${unit}`);
      expect(description).toContain(`most (${Math.max(...series.map((bucket) => bucket.scans))})`);
      const tableRows = $('section[aria-labelledby="h-series"] tbody tr')
        .map((_, row) => [[$(row).find('td').eq(0).text(), $(row).find('td').eq(1).text()]])
        .get();
      expect(tableRows).toEqual(series.map((bucket) => [String(bucket.scans), String(bucket.unique_visitors)]));
      expect($('.tile .number').first().text()).toBe(analytics.totals.scans.toLocaleString('en-US'));
    });
  });
});
