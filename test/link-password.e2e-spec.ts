import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, listenOnLoopback, VIEWPORTS } from './support/browser';
import { describeWhen, HAS_CHROMIUM } from './support/environment';
import { createQr, GENEROUS_RATE_LIMIT, getQr } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';
import { USER_AGENTS } from './support/user-agents';

jest.setTimeout(60_000);

/**
 * A password-protected link in a real browser (Debian's Chromium through playwright-core) against
 * the app on a loopback socket (docs/smart-links.md#password): the form, a wrong password, the right
 * one through to the target (the form post allowed by the page's CSP, the redirects after it too),
 * the cookie opening the link again, and the attempt limit's page.
 */
describeWhen(HAS_CHROMIUM)('password-protected links in a browser (e2e)', () => {
  let t: TestApp;
  let key: string;
  let origin: string;
  let browser: Browser;
  /** The links' target: a server of the test's own on another loopback port (another origin; Playwright's routes miss redirected requests). */
  let targetServer: Server;
  let TARGET: string;
  /** What the target server was asked for. */
  const targetHits: string[] = [];

  beforeAll(async () => {
    targetServer = createServer((request, response) => {
      targetHits.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>target</title><p>the target');
    });
    await new Promise<void>((resolve) => targetServer.listen(0, '127.0.0.1', resolve));
    TARGET = `http://127.0.0.1:${(targetServer.address() as AddressInfo).port}/members?from=qr`;
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key } = await t.newAccount());
    origin = await listenOnLoopback(t.app);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    targetServer?.close();
  });

  /** A phone's context: requests to origins other than the app's and the target's are answered here (and remembered). */
  async function phone(): Promise<{ context: BrowserContext; outside: string[]; problems: string[] }> {
    const context = await browser.newContext({ ...VIEWPORTS.phone, userAgent: USER_AGENTS.iphone.ua });
    const outside: string[] = [];
    const problems: string[] = [];
    await context.route(
      (url) => url.origin !== origin && url.origin !== new URL(TARGET).origin,
      (route) => {
        outside.push(route.request().url());
        return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>target</title>outside' });
      },
    );
    context.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    return { context, outside, problems };
  }

  async function submit(page: Page, password: string): Promise<void> {
    await page.getByLabel('Password').fill(password);
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Open' }).click()]);
  }

  const scansOf = async (id: string) => (await getQr(t, key, id)).json().scans as number;

  it('wrong password: the form again with the error; right: on to the target; within the cookie’s life: straight through', async () => {
    const code = await createQr(t, key, { content: { url: TARGET }, is_dynamic: true, password: 'correct horse' });
    const { context, outside, problems } = await phone();
    const page = await context.newPage();
    const form = await page.goto(`${origin}/r/${code.short_code}?src=poster`);
    expect(form!.status()).toBe(200);
    expect(form!.headers()['content-security-policy']).toContain("form-action 'self' http: https:;");
    expect(await page.locator('h1').innerText()).toBe('Password required');
    expect(await page.getByRole('alert').count()).toBe(0);

    await submit(page, 'wrong horse');
    expect(page.url()).toBe(`${origin}/r/${code.short_code}?src=poster`);
    expect(await page.getByRole('alert').innerText()).toBe('Wrong password. Try again.');
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    expect(await scansOf(code.id)).toBe(0);

    await submit(page, 'correct horse');
    expect(page.url()).toBe(TARGET);
    expect(targetHits).toEqual(['/members?from=qr']);
    expect(outside).toEqual([]);
    const [cookie] = await context.cookies(origin + `/r/${code.short_code}`);
    expect(cookie).toMatchObject({ name: `qr_pw_${code.short_code}`, path: `/r/${code.short_code}`, httpOnly: true, sameSite: 'Lax', secure: false });
    expect(cookie.expires - Date.now() / 1000).toBeGreaterThan(14 * 60);
    expect(cookie.expires - Date.now() / 1000).toBeLessThanOrEqual(15 * 60);
    expect(await scansOf(code.id)).toBe(1);

    // A second scan in the cookie's life: no form, straight to the target, counted.
    const again = await context.newPage();
    await again.goto(`${origin}/r/${code.short_code}`);
    expect(again.url()).toBe(TARGET);
    expect(targetHits).toEqual(['/members?from=qr', '/members?from=qr']);
    expect(await scansOf(code.id)).toBe(2);
    // The page script cannot read the cookie; another code's link is not opened by it.
    expect(await again.evaluate(() => document.cookie)).toBe('');
    const other = await createQr(t, key, { content: { url: TARGET }, is_dynamic: true, password: 'correct horse' });
    await again.goto(`${origin}/r/${other.short_code}`);
    expect(await again.locator('h1').innerText()).toBe('Password required');
    // Nothing was refused by a content security policy on the way (a refused form post or redirect is a console error).
    expect(problems.filter((problem) => !problem.includes('status of 403'))).toEqual([]);
    await context.close();
  });

  it('the attempt limit: after 5 wrong passwords from one visitor, the "too many attempts" page, even for the right one', async () => {
    const code = await createQr(t, key, { content: { url: TARGET }, is_dynamic: true, password: 'correct horse' });
    const { context, outside } = await phone();
    const page = await context.newPage();
    await page.goto(`${origin}/r/${code.short_code}`);
    for (let i = 0; i < 5; i++) {
      await submit(page, `guess ${i}`);
      expect(await page.getByRole('alert').innerText()).toBe('Wrong password. Try again.');
    }
    const response = page.waitForResponse((res) => res.request().method() === 'POST');
    await submit(page, 'correct horse');
    expect((await response).status()).toBe(429);
    expect(await page.locator('h1').innerText()).toBe('Too many attempts');
    expect(await page.locator('form').count()).toBe(0);
    expect(outside).toEqual([]);
    expect(targetHits).toHaveLength(2);
    expect(await context.cookies()).toEqual([]);
    expect(await scansOf(code.id)).toBe(0);
    await context.close();
  });
});
