/**
 * Screenshots of every landing page, to look at: each dynamic type (the samples the browser tests
 * use, long and right-to-left ones included), the paused, expired, not-found and unavailable pages,
 * and the link controls' (password, limit reached, too many attempts), at a phone's size (390×844)
 * and a desktop's (1280×800), in light and dark mode.
 *
 *   node -r @swc-node/register test/visual/landing-pages.ts [--only <name-substring>]
 *
 * Runs the real app on a loopback port against a database of its own on the local PostgreSQL
 * (BENCH_PG, default postgresql://postgres@127.0.0.1:5432; the database `qr_visual_landing` is
 * recreated each run), through a TCP proxy that is cut at the end for the 503 page; caches in
 * process (no Redis). Needs Debian's /usr/bin/chromium. Writes test/visual/out/landing/ (git-ignored):
 * <page>-<phone|desktop>-<light|dark>.png (whole pages) and sheet-<viewport>-<scheme>.png, every
 * page of one size and mode side by side.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../../src/app.factory';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { loadAppConfig } from '../../src/config/app-config';
import { freshMigratedDatabase } from '../support/test-databases';
import { Database } from '../../src/infra/database/database.service';
import { launchChromium, listenOnLoopback, VIEWPORTS, type ViewportName } from '../support/browser';
import { LANDING_SAMPLES, LINK_CONTROL_SAMPLES, SAMPLE_LINK_PASSWORD, STATUS_SAMPLES } from '../support/landing-samples';
import { USER_AGENTS } from '../support/user-agents';
import { TcpOutageProxy } from '../support/tcp-outage-proxy';

const PG = process.env.BENCH_PG ?? 'postgresql://postgres@127.0.0.1:5432';
const DB = 'qr_visual_landing';
const OUT = join(__dirname, 'out', 'landing');
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;

async function main(): Promise<void> {
  await freshMigratedDatabase(PG, DB);
  const proxy = TcpOutageProxy.forUrl(`${PG}/${DB}`, 5432);
  await proxy.start();

  const config = loadAppConfig({
    DATABASE_URL: proxy.proxiedUrl(),
    REDIS_URL: undefined,
    LOG_LEVEL: 'silent',
    BASE_URL: 'http://127.0.0.1',
    RATE_LIMIT_PER_MINUTE: '100000',
  });
  const app = await createApp(config, { logger: false });
  const origin = await listenOnLoopback(app);
  const { key } = await app.get(ApiKeysService).create('landing screenshots');
  const create = async (body: Record<string, unknown>): Promise<{ id: string; short_code: string }> => {
    const response = await fetch(`${origin}/api/v1/qrcodes`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string; short_code: string };
  };

  const paths = new Map<string, string>();
  for (const sample of LANDING_SAMPLES) {
    paths.set(sample.name, `/r/${(await create({ type: sample.type, content: sample.content, is_dynamic: true })).short_code}`);
  }
  const paused = await create({ type: 'text', content: { text: 'paused' }, is_dynamic: true });
  await fetch(`${origin}/api/v1/qrcodes/${paused.id}`, {
    method: 'PUT',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'paused' }),
  });
  paths.set('paused', `/r/${paused.short_code}`);
  const expired = await create({
    type: 'text',
    content: { text: 'expired' },
    is_dynamic: true,
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
  });
  const inspect = app.get(Database).inspectionClient();
  await inspect.qrCode.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  await inspect.$disconnect();
  paths.set('expired', `/r/${expired.short_code}`);
  paths.set('not-found', '/r/Zz9Zz9Zz');
  const protectedLink = { type: 'url', content: { url: 'https://example.com/members' }, is_dynamic: true, password: SAMPLE_LINK_PASSWORD };
  paths.set('password', `/r/${(await create(protectedLink)).short_code}`);
  paths.set('too-many-attempts', `/r/${(await create(protectedLink)).short_code}`);
  const limited = await create({ type: 'url', content: { url: 'https://example.com/offer' }, is_dynamic: true, max_scans: 1 });
  await fetch(`${origin}/r/${limited.short_code}`, { redirect: 'manual', headers: { 'user-agent': USER_AGENTS.iphone.ua } });
  paths.set('limit-reached', `/r/${limited.short_code}`);
  paths.set('unavailable', '/r/Zz9Zz9Zy');

  mkdirSync(OUT, { recursive: true });
  const browser = await launchChromium();
  const names = [
    ...LANDING_SAMPLES.map((sample) => sample.name),
    ...LINK_CONTROL_SAMPLES.map((sample) => sample.name),
    // Last: its database connection is cut for good.
    ...STATUS_SAMPLES.map((sample) => sample.name),
  ].filter((name) => !only || name.includes(only));
  const shots: Array<{ name: string; viewport: ViewportName; scheme: 'light' | 'dark'; file: string; status: number }> = [];
  for (const name of names) {
    if (name === 'unavailable') await proxy.cut();
    for (const viewport of ['phone', 'desktop'] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        // A phone's user agent: a headless browser's is a bot's, which scan limits let through.
        const context = await browser.newContext({
          ...VIEWPORTS[viewport],
          deviceScaleFactor: 1,
          colorScheme: scheme,
          userAgent: USER_AGENTS.iphone.ua,
        });
        await context.route(
          (url) => url.origin !== origin,
          (route) => route.abort(),
        );
        const page = await context.newPage();
        let response = await page.goto(`${origin}${paths.get(name)!}`);
        // The too-many-attempts page answers a form post: wrong passwords until it comes.
        while (name === 'too-many-attempts' && response?.status() !== 429 && (await page.locator('form').count()) > 0) {
          await page.getByLabel('Password').fill('wrong guess');
          [response] = await Promise.all([page.waitForResponse((res) => res.request().method() === 'POST'), page.locator('button').click()]);
          await page.waitForLoadState();
        }
        const file = `${name}-${viewport}-${scheme}.png`;
        await page.screenshot({ path: join(OUT, file), fullPage: true });
        shots.push({ name, viewport, scheme, file, status: response?.status() ?? 0 });
        await context.close();
      }
    }
  }

  // Contact sheets: every page of one size and mode side by side, to look at in one picture.
  for (const viewport of ['phone', 'desktop'] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      const row = shots.filter((shot) => shot.viewport === viewport && shot.scheme === scheme);
      const width = viewport === 'phone' ? 260 : 480;
      const cells = row
        .map(
          (shot) =>
            `<figure><img src="data:image/png;base64,${readFileSync(join(OUT, shot.file)).toString('base64')}" width="${width}">` +
            `<figcaption>${shot.name} (${shot.status})</figcaption></figure>`,
        )
        .join('');
      const sheet =
        '<!doctype html><meta charset="utf-8"><style>' +
        'body{margin:0;padding:12px;background:#777;font:14px system-ui;display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}' +
        'figure{margin:0}img{display:block;border:1px solid #333}figcaption{color:#fff}' +
        `</style>${cells}`;
      writeFileSync(join(OUT, `sheet-${viewport}-${scheme}.html`), sheet);
      const page = await browser.newPage({ viewport: { width: viewport === 'phone' ? 1700 : 2000, height: 800 } });
      await page.setContent(sheet);
      await page.screenshot({ path: join(OUT, `sheet-${viewport}-${scheme}.png`), fullPage: true });
      await page.close();
    }
  }
  await browser.close();
  await proxy.restore();
  await app.close();
  await proxy.cut();
  console.log(`${shots.length} screenshots in ${OUT}:`);
  for (const shot of shots) console.log(`  ${shot.file} (HTTP ${shot.status})`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
