/**
 * Downloads in a real browser: a small page with one link per format (the API key sent as a header
 * by the browser context, as a proxy or an extension would add it), each clicked as a person does.
 * Chromium names the file from Content-Disposition (the UTF-8 `filename*`) and the bytes are the
 * format asked for; the PNG is decoded.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium, listenOnLoopback } from './support/browser';
import { decodeRaster } from './support/decode-svg';
import { describeWhen, HAS_CHROMIUM } from './support/environment';
import { createQr, GENEROUS_RATE_LIMIT } from './support/factories';
import { decodePng, flattenOnWhite } from './support/png-reader';
import { startTestApp, type TestApp } from './support/test-app';

describeWhen(HAS_CHROMIUM)('export downloads in Chromium (e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let origin: string;
  let code: Record<string, any>;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    origin = await listenOnLoopback(t.app);
    const { key } = await t.newAccount();
    code = await createQr(t, key, { name: 'Café menu: Σαρώστε/Сканируй', style: { frameOptions: { type: 'banner-bottom', text: 'Scan me' } } });
    browser = await launchChromium();
    context = await browser.newContext({ acceptDownloads: true, extraHTTPHeaders: { 'x-api-key': key } });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it.each([
    ['png', 'size=600', (bytes: Buffer) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
    ['pdf', 'width_mm=40&bleed_mm=3', (bytes: Buffer) => bytes.subarray(0, 5).toString() === '%PDF-'],
    ['svg', 'width_mm=40', (bytes: Buffer) => bytes.toString().startsWith('<svg xmlns="http://www.w3.org/2000/svg"')],
  ])('downloads the %s file named after the code', async (format, query, hasFormat) => {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    // The page is served from the API's own origin, so its links are same-origin downloads.
    await page.route(`${origin}/download-page`, (route) =>
      route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body:
          '<!doctype html><meta charset="utf-8"><title>Downloads</title>' +
          `<a id="file" href="/api/v1/qrcodes/${code.id}/export?format=${format}&${query}">Download ${format}</a>`,
      }),
    );
    await page.goto(`${origin}/download-page`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#file')]);
    expect(download.suggestedFilename()).toBe(`Café menu_ Σαρώστε_Сканируй.${format}`);
    expect(await download.failure()).toBeNull();
    const bytes = readFileSync(await download.path());
    expect(hasFormat(bytes)).toBe(true);
    if (format === 'png') expect(decodeRaster(flattenOnWhite(decodePng(bytes)))).toBe(code.content_string);
    await page.close();
  });
});
