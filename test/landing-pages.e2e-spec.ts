import { HAS_POSTGRES, itWhen } from './support/environment';
import AxeBuilder from '@axe-core/playwright';
import type ICALModule from 'ical.js' with { 'resolution-mode': 'import' };
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import vCard from 'vcf';
import { launchChromium, listenOnLoopback, VIEWPORTS, type ViewportName } from './support/browser';
import { decodeSvg } from './support/decode-svg';
import { auth, createQr, expectStatus, GENEROUS_RATE_LIMIT, updateQr } from './support/factories';
import { LANDING_SAMPLES, LINK_CONTROL_SAMPLES, SAMPLE_LINK_PASSWORD, STATUS_SAMPLES, type LandingSampleName } from './support/landing-samples';
import { TcpOutageProxy } from './support/tcp-outage-proxy';
import { PASSWORD_ATTEMPTS } from '../src/smart-links';
import { startTestApp, type TestApp } from './support/test-app';

// ical.js declares types for its ES module only; its CommonJS build (what require gives) is the same API.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ICAL = require('ical.js') as typeof ICALModule;

jest.setTimeout(90_000);

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
/** Where the 390×844 screenshots go (git-ignored; the committed reference set is test/visual/landing-fold/). */
const FOLD_SHOTS = join(__dirname, 'visual', 'out', 'landing-fold');
/** The pages with no button to press: their whole card must fit the screen. */
const PAGES_WITHOUT_PRIMARY_ACTION = [
  'wifi',
  'wifi-hidden-open',
  'text',
  'text-links',
  'paused',
  'expired',
  'not-found',
  'limit-reached',
  'too-many-attempts',
];
/** A short code of the right shape that no code has. */
const UNKNOWN_CODE = 'Zz9Zz9Zz';

type PagePath = LandingSampleName | (typeof STATUS_SAMPLES)[number]['name'] | (typeof LINK_CONTROL_SAMPLES)[number]['name'];

/**
 * Every landing page in a real browser (Debian's Chromium through playwright-core) against the real
 * app on a loopback socket, Postgres and Redis: at a phone's and a desktop's size, in light and dark
 * mode, checked by axe-core, with each primary action clicked and its result asserted.
 */
describe('landing pages in a browser (e2e)', () => {
  let t: TestApp;
  let key: string;
  let origin: string;
  let browser: Browser;
  const codes = new Map<PagePath, { id?: string; path: string }>();
  /** Serious and critical axe findings per page and mode (must stay empty), and the milder ones, reported. */
  const axeFindings: string[] = [];
  let axeRuns = 0;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key } = await t.newAccount());
    origin = await listenOnLoopback(t.app);
    browser = await launchChromium();
    for (const sample of LANDING_SAMPLES) {
      const code = await createQr(t, key, { type: sample.type, content: sample.content, is_dynamic: true, name: sample.name });
      codes.set(sample.name, { id: code.id, path: `/r/${code.short_code}` });
    }
    const paused = await createQr(t, key, { type: 'text', content: { text: 'paused' }, is_dynamic: true });
    expectStatus(await updateQr(t, key, paused.id, { status: 'paused' }), 200);
    codes.set('paused', { id: paused.id, path: `/r/${paused.short_code}` });
    const expired = await createQr(t, key, {
      type: 'text',
      content: { text: 'expired' },
      is_dynamic: true,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    // Expiry passes with time, not through the API: move it into the past before the link is first opened.
    await t.prisma.qrCode.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    codes.set('expired', { id: expired.id, path: `/r/${expired.short_code}` });
    codes.set('not-found', { path: `/r/${UNKNOWN_CODE}` });
    const protectedCode = await createQr(t, key, {
      content: { url: 'https://example.com/members' },
      is_dynamic: true,
      password: SAMPLE_LINK_PASSWORD,
    });
    codes.set('password', { id: protectedCode.id, path: `/r/${protectedCode.short_code}` });
    // The too-many-attempts page answers a form post: opened by posting wrong passwords to a protected link of its own.
    const guessed = await createQr(t, key, { content: { url: 'https://example.com/members' }, is_dynamic: true, password: SAMPLE_LINK_PASSWORD });
    codes.set('too-many-attempts', { id: guessed.id, path: `/r/${guessed.short_code}` });
    const limited = await createQr(t, key, { content: { url: 'https://example.com/offer' }, is_dynamic: true, max_scans: 1 });
    expectStatus(await t.request({ method: 'GET', url: `/r/${limited.short_code}`, headers: { 'user-agent': IPHONE } }), 302);
    codes.set('limit-reached', { id: limited.id, path: `/r/${limited.short_code}` });
  });
  afterAll(async () => {
    console.log(`axe-core: ${axeRuns} page analyses; findings below serious: ${axeFindings.length === 0 ? 'none' : `\n${axeFindings.join('\n')}`}`);
    await browser?.close();
    await t?.close();
  });

  const pathOf = (name: PagePath) => codes.get(name)!.path;
  const scansOf = async (id: string) => (await t.request({ method: 'GET', url: `/api/v1/qrcodes/${id}`, headers: auth(key) })).json().scans as number;

  /** Requests that would leave the machine (maps, calendars) are answered here and remembered: nothing goes out. */
  async function newContext(
    viewport: ViewportName,
    colorScheme: 'light' | 'dark' = 'light',
  ): Promise<{ context: BrowserContext; outside: string[] }> {
    const context = await browser.newContext({ ...VIEWPORTS[viewport], colorScheme, userAgent: IPHONE, acceptDownloads: true });
    const outside: string[] = [];
    await context.route(
      (url) => url.origin !== origin,
      (route) => {
        outside.push(route.request().url());
        return route.fulfill({ status: 200, contentType: 'text/plain', body: 'outside' });
      },
    );
    return { context, outside };
  }

  interface Opened {
    page: Page;
    response: Response;
    /** console errors and warnings (a CSP violation is one) and script errors */
    problems: string[];
  }

  async function open(context: BrowserContext, path: string): Promise<Opened> {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const response = await page.goto(`${origin}${path}`);
    if (!response) throw new Error(`no response for ${path}`);
    return { page, response, problems };
  }

  /** A page by name: the too-many-attempts page is the answer to a wrong password posted once too often from this visitor. */
  async function openPage(context: BrowserContext, name: PagePath): Promise<Opened> {
    const opened = await open(context, pathOf(name));
    if (name !== 'too-many-attempts') return opened;
    for (let attempt = 0; attempt <= PASSWORD_ATTEMPTS.perVisitor; attempt++) {
      await opened.page.getByLabel('Password').fill(`guess ${attempt}`);
      const [response] = await Promise.all([
        opened.page.waitForResponse((res) => res.request().method() === 'POST'),
        opened.page.getByRole('button', { name: 'Open' }).click(),
      ]);
      await opened.page.waitForLoadState();
      if (response.status() === 429) {
        // Only the last page's problems count: the wrong-password pages before it were answered 403.
        opened.problems.length = 0;
        return { ...opened, response };
      }
    }
    throw new Error('no "too many attempts" answer');
  }

  /** Clicks `selector` on a fresh page (Chromium hands a tab one external-scheme launch) and returns the URL it asked to open. */
  async function launchedBy(context: BrowserContext, path: string, selector: string): Promise<string> {
    const { page } = await open(context, path);
    const launched = page.waitForRequest((request) => !request.url().startsWith(origin), { timeout: 5000 });
    await page.locator(selector).click();
    const url = (await launched).url();
    await page.close();
    return url;
  }

  async function expectNoSeriousAxeFindings(page: Page, label: string): Promise<void> {
    const results = await new AxeBuilder({ page }).analyze();
    axeRuns += 1;
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    for (const violation of results.violations) {
      if (!serious.includes(violation)) axeFindings.push(`${label}: ${violation.impact} ${violation.id} (${violation.nodes.length})`);
    }
    expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
    expect(results.passes.length).toBeGreaterThan(10);
  }

  const pages: Array<{ name: PagePath; status: number }> = [
    ...LANDING_SAMPLES.map((sample) => ({ name: sample.name, status: 200 })),
    ...STATUS_SAMPLES.filter((sample) => sample.name !== 'unavailable').map((sample) => ({ name: sample.name, status: sample.status })),
    ...LINK_CONTROL_SAMPLES.map((sample) => ({ name: sample.name, status: sample.status })),
  ];

  describe.each(['phone', 'desktop'] as const)('at %s size', (viewport) => {
    it.each(pages)(
      '$name: status, headers, styled layout without overflow, tap targets of 44 px, axe in light and dark mode',
      async ({ name, status }) => {
        for (const colorScheme of ['light', 'dark'] as const) {
          const { context } = await newContext(viewport, colorScheme);
          const { page, response, problems } = await openPage(context, name);
          expect(response.status()).toBe(status);
          const headers = response.headers();
          const csp = headers['content-security-policy'];
          expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*';/);
          // Only the password form may be sent (to its own origin, and on along the redirects to the link's target).
          const formAction = name === 'password' ? "form-action 'self' http: https:;" : "form-action 'none';";
          expect(csp).toContain(formAction);
          expect(csp.replace(formAction, '')).not.toMatch(/unsafe-inline|https?:/);
          expect(headers).toMatchObject({
            'x-content-type-options': 'nosniff',
            'referrer-policy': 'no-referrer',
            'x-robots-tag': 'noindex, nofollow',
          });
          expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex,nofollow');
          expect(await page.locator('script').count()).toBe(0);

          const layout = await page.evaluate(() => {
            const main = document.querySelector('main')!;
            // Links inside running text are exempt from the target size (WCAG 2.5.8): every other control is checked.
            const targets = Array.from(document.querySelectorAll('a.button, a.row, button, input, textarea')).map((element) => {
              const box = element.getBoundingClientRect();
              return { what: element.outerHTML.slice(0, 60), width: box.width, height: box.height };
            });
            return {
              overflow: document.documentElement.scrollWidth - window.innerWidth,
              radius: getComputedStyle(main).borderTopLeftRadius,
              background: getComputedStyle(document.body).backgroundColor,
              h1: document.querySelector('h1')?.textContent ?? '',
              targets,
            };
          });
          // The inlined stylesheet applied (its hash matched the CSP): the card's rounded corners and the scheme's background.
          expect(layout.radius).toBe('20px');
          expect(layout.background).toBe(colorScheme === 'dark' ? 'rgb(11, 15, 23)' : 'rgb(241, 243, 246)');
          expect(layout.overflow).toBeLessThanOrEqual(0);
          expect(layout.h1.length).toBeGreaterThan(0);
          const control = LINK_CONTROL_SAMPLES.find((sample) => sample.name === name);
          if (control) expect(layout.h1).toBe(control.heading);
          for (const target of layout.targets) {
            expect({ ...target, tall: target.height >= 44, wide: target.width >= 44 }).toMatchObject({ tall: true, wide: true });
          }
          await expectNoSeriousAxeFindings(page, `${name} ${viewport} ${colorScheme}`);
          // The browser reports a page's own error status; anything else (a CSP violation) is a problem.
          expect(
            problems.filter((problem) => !problem.startsWith(`Failed to load resource: the server responded with a status of ${status}`)),
          ).toEqual([]);
          expect(
            await page.locator('a:not(.button):not(.row)').evaluateAll((links) => links.every((link) => link.closest('.text, .value') !== null)),
          ).toBe(true);
          await context.close();
        }
      },
    );
  });

  it('fits one 390×844 phone screen: the primary action (or the whole page) above the fold; screenshots under test/visual/out', async () => {
    // One CSS pixel per image pixel: the screenshots compare with the committed set (test/visual/landing-fold/*.png, 390×844).
    const context = await browser.newContext({ ...VIEWPORTS.phone, deviceScaleFactor: 1, userAgent: IPHONE });
    await mkdir(FOLD_SHOTS, { recursive: true });
    const fits: Array<{ name: PagePath; primary: string | null; bottom: number; scrollHeight: number; fold: number }> = [];
    for (const { name } of pages) {
      const { page } = await openPage(context, name);
      const measured = await page.evaluate(() => {
        // A page without a primary action (status pages, Wi-Fi, text) is read whole: its card is the "action".
        const primary = document.querySelector<HTMLElement>('.primary');
        const target = primary ?? document.querySelector('main')!;
        return {
          primary: primary?.textContent?.trim() ?? null,
          bottom: Math.ceil(target.getBoundingClientRect().bottom + window.scrollY),
          scrollHeight: document.documentElement.scrollHeight,
          fold: window.innerHeight,
        };
      });
      fits.push({ name, ...measured });
      await page.screenshot({ path: join(FOLD_SHOTS, `${name}.png`) });
      await page.close();
    }
    await context.close();
    const described = fits.map((fit) => `${fit.name} ${fit.primary ? `"${fit.primary}"` : 'card'} to ${fit.bottom}, page ${fit.scrollHeight}`);
    console.log(`390×844: ${described.join('; ')}`);
    expect(fits.filter((fit) => fit.primary === null).map((fit) => fit.name)).toEqual(PAGES_WITHOUT_PRIMARY_ACTION);
    expect(fits.filter((fit) => fit.fold !== 844 || fit.bottom > fit.fold)).toEqual([]);
    // No page needs scrolling at all, but for the deliberately long contents (their primary action is still above the fold).
    const scrolled = fits.filter((fit) => fit.scrollHeight > fit.fold).map((fit) => fit.name);
    expect(scrolled).toEqual(['vcard-long']);
  });

  it('stays within a 320 px wide screen, even with long right-to-left and emoji names', async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, userAgent: IPHONE });
    for (const { name } of pages) {
      const { page } = await openPage(context, name);
      expect({ name, overflow: await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth) }).toEqual({ name, overflow: 0 });
      await page.close();
    }
    await context.close();
  });

  it('wraps an e-mail address at 320 px after its @ or a dot, never mid-word', async () => {
    const code = await createQr(t, key, { type: 'email', content: { to: 'support@example.com' }, is_dynamic: true });
    const context = await browser.newContext({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });
    const { page } = await open(context, `/r/${code.short_code}`);
    // The heading's lines as laid out: characters grouped by the top of their box.
    const lines = await page.locator('h1').evaluate((heading) => {
      const result: string[] = [];
      let lastTop: number | null = null;
      const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.textContent!.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const top = Math.round(range.getBoundingClientRect().top);
          if (lastTop === null || top > lastTop + 2) result.push('');
          result[result.length - 1] += node.textContent![i];
          lastTop = top;
        }
      }
      return result;
    });
    expect(lines.join('')).toBe('support@example.com');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(0, -1).filter((line) => !/[@.]$/.test(line))).toEqual([]);
    await context.close();
  });

  describe.each(['phone', 'desktop'] as const)('actions at %s size', (viewport) => {
    let context: BrowserContext;
    let outside: string[];
    beforeEach(async () => ({ context, outside } = await newContext(viewport)));
    afterEach(() => context.close());

    it('vcard: "Save contact" downloads a vCard 3.0 that a vCard parser reads back; each detail row does what it says', async () => {
      const { page } = await open(context, pathOf('vcard'));
      expect(await page.locator('h1').innerText()).toBe('Ada Lovelace');
      expect(await page.locator('.badge').textContent()).toBe('AL');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Save contact' }).click()]);
      expect(download.suggestedFilename()).toBe('Ada Lovelace.vcf');
      const text = await readFile(await download.path(), 'utf8');
      expect(text).toMatch(/^BEGIN:VCARD\r\nVERSION:3\.0\r\n/);
      expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
      const [card] = vCard.parse(text);
      expect(card.version).toBe('3.0');
      expect(card.get('fn').valueOf()).toBe('Ada Lovelace');
      expect(card.get('n').valueOf()).toBe('Lovelace;Ada;;;');
      expect(card.get('org').valueOf()).toBe('Analytical Engines Ltd');
      expect(card.get('title').valueOf()).toBe('Chief Mathematician');
      const phones = [card.get('tel')].flat().map((tel) => [tel.valueOf(), tel.toJSON()[1].type]);
      expect(phones).toEqual([
        ['+44 20 7946 0000', ['work', 'voice']],
        ['+44 7700 900123', 'cell'],
      ]);
      expect(card.get('email').valueOf()).toBe('ada@example.com');
      expect(card.get('url').valueOf()).toBe('https://example.com/ada');
      expect(card.get('adr').valueOf()).toBe(';;12 Example Street;London;;N1 9GU;United Kingdom');
      expect(card.get('note').valueOf()).toBe('Met at the spring fair.\\nAsk about the engine.');

      const row = (label: string) => `a.row:has(.label:text-is("${label}"))`;
      expect(await page.locator(row('Phone')).getAttribute('href')).toBe('tel:+442079460000');
      expect(await page.locator(row('Mobile')).getAttribute('href')).toBe('tel:+447700900123');
      expect(await page.locator(row('Email')).getAttribute('href')).toBe('mailto:ada@example.com');
      expect(await launchedBy(context, pathOf('vcard'), row('Phone'))).toBe('tel:+442079460000');
      expect(await launchedBy(context, pathOf('vcard'), row('Email'))).toBe('mailto:ada@example.com');
      await page.locator(row('Website')).click();
      await page.waitForURL('https://example.com/ada');
      await page.goBack();
      await page.locator(row('Address')).click();
      await page.waitForURL(/^https:\/\/www\.google\.com\/maps\/search\//);
      expect(new URL(page.url()).searchParams.get('query')).toBe('12 Example Street, N1 9GU London, United Kingdom');
      expect(outside).toEqual(['https://example.com/ada', page.url()]);
    });

    it('vcard with a right-to-left and emoji name: laid out right to left, saved under its name', async () => {
      const { page } = await open(context, pathOf('vcard-rtl'));
      expect(await page.locator('h1').innerText()).toBe('ليلى حداد 🌟');
      expect(await page.locator('h1').evaluate((h1) => getComputedStyle(h1).direction)).toBe('rtl');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Save contact' }).click()]);
      expect(download.suggestedFilename()).toBe('ليلى حداد 🌟.vcf');
      const [card] = vCard.parse(await readFile(await download.path(), 'utf8'));
      expect(card.get('fn').valueOf()).toBe('ليلى حداد 🌟');
    });

    it('event: times in its own zone, "Add to calendar" downloads an RFC 5545 file an iCalendar parser reads, Google Calendar link', async () => {
      const { page } = await open(context, pathOf('event'));
      expect(await page.locator('h1').innerText()).toBe('Spring open day');
      expect(await page.locator('.row').first().innerText()).toBe('When (UTC+02:00)\nSaturday 1 June 2030\n18:00 – 21:00');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Add to calendar' }).click()]);
      expect(download.suggestedFilename()).toBe('Spring open day.ics');
      const text = await readFile(await download.path(), 'utf8');
      expect(text.endsWith('\r\n')).toBe(true);
      expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
      expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
      const calendar = new ICAL.Component(ICAL.parse(text));
      expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
      const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
      expect(event.uid).toBe(codes.get('event')!.id);
      expect(event.summary).toBe('Spring open day');
      expect(event.location).toBe('Main Hall, Example Street 1, Berlin');
      expect(event.description).toBe('Tours every hour, free entry.\nProgramme: https://example.com/open-day');
      expect(event.startDate.toJSDate().toISOString()).toBe('2030-06-01T16:00:00.000Z');
      expect(event.endDate.toJSDate().toISOString()).toBe('2030-06-01T19:00:00.000Z');
      const stamp = calendar.getFirstSubcomponent('vevent')!.getFirstPropertyValue('dtstamp') as InstanceType<typeof ICAL.Time>;
      expect(Math.abs(stamp.toJSDate().getTime() - Date.now())).toBeLessThan(60_000);

      await page.getByRole('link', { name: 'Google Calendar' }).click();
      await page.waitForURL(/^https:\/\/calendar\.google\.com\/calendar\/render\?/);
      const query = new URL(page.url()).searchParams;
      expect(Object.fromEntries(query)).toEqual({
        action: 'TEMPLATE',
        text: 'Spring open day',
        dates: '20300601T160000Z/20300601T190000Z',
        location: 'Main Hall, Example Street 1, Berlin',
        details: 'Tours every hour, free entry.\nProgramme: https://example.com/open-day',
      });
    });

    it('event without an offset: shown in UTC, labelled so', async () => {
      const { page } = await open(context, pathOf('event-utc'));
      expect(await page.locator('.row').first().innerText()).toBe('When (UTC)\nThursday 14 March 2030\n09:30');
    });

    it('wifi: the password is in a selectable field, the instructions name the network, the QR image joins it', async () => {
      const { page } = await open(context, pathOf('wifi'));
      expect(await page.locator('h1').innerText()).toBe('CafeNet');
      const password = page.getByLabel('Password');
      expect(await password.inputValue()).toBe('secret123');
      expect(await password.evaluate((input) => getComputedStyle(input).userSelect)).not.toBe('none');
      await password.selectText();
      const selected = await password.evaluate((input: HTMLInputElement) => input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0));
      expect(selected).toBe('secret123');
      expect(await page.locator('.steps').innerText()).toContain('iPhone: Settings › Wi-Fi, choose “CafeNet” and enter the password.');
      expect(await page.locator('.steps').innerText()).toContain('Android:');
      const svg = await page.locator('.qr svg').evaluate((element) => element.outerHTML);
      expect(decodeSvg(svg)).toBe('WIFI:T:WPA;S:CafeNet;P:secret123;;');
    });

    it('wifi, hidden and open: says so, asks for no password', async () => {
      const { page } = await open(context, pathOf('wifi-hidden-open'));
      expect(await page.locator('.sub').innerText()).toBe('Hidden network: add it by name');
      expect(await page.locator('.message').innerText()).toBe('No password needed.');
      expect(await page.locator('input').count()).toBe(0);
      expect(await page.locator('.steps').innerText()).toContain('Other…, type the name “Back Office”.');
      expect(decodeSvg(await page.locator('.qr svg').evaluate((element) => element.outerHTML))).toBe('WIFI:T:nopass;S:Back Office;H:true;;');
    });

    it('phone: "Call" opens tel: with the dialable number; the number is selectable', async () => {
      const { page } = await open(context, pathOf('phone'));
      expect(await page.locator('h1').innerText()).toBe('+49 30 1234567');
      expect(await page.getByRole('link', { name: 'Call' }).getAttribute('href')).toBe('tel:+49301234567');
      expect(await launchedBy(context, pathOf('phone'), 'a.primary')).toBe('tel:+49301234567');
      expect(await page.getByLabel('Number').inputValue()).toBe('+49 30 1234567');
    });

    it('sms: "Send message" opens sms: with the message percent-encoded as its body', async () => {
      const { page } = await open(context, pathOf('sms'));
      expect(await page.locator('.bubble').innerText()).toBe('JOIN us & save 10%');
      const href = 'sms:+15550109999?body=JOIN%20us%20%26%20save%2010%25';
      expect(await page.getByRole('link', { name: 'Send message' }).getAttribute('href')).toBe(href);
      expect(await launchedBy(context, pathOf('sms'), 'a.primary')).toBe(href);
      expect(await page.getByLabel('Message').inputValue()).toBe('JOIN us & save 10%');
    });

    it('email: "Write email" opens mailto: with subject and body percent-encoded', async () => {
      const { page } = await open(context, pathOf('email'));
      const href = 'mailto:hello@example.com?subject=Order%2012%20%26%20more&body=Hi%20there%0D%0Aline%202';
      expect(await page.getByRole('link', { name: 'Write email' }).getAttribute('href')).toBe(href);
      expect(await launchedBy(context, pathOf('email'), 'a.primary')).toBe(href);
      expect(await page.getByLabel('Address').inputValue()).toBe('hello@example.com');
    });

    it('geo: "Open in Maps" opens geo:, Apple Maps and Google Maps links open the place', async () => {
      const { page } = await open(context, pathOf('geo'));
      expect(await page.locator('h1').innerText()).toBe('52.520008, 13.404954');
      expect(await page.locator('.sub').innerText()).toBe('52.520008° N, 13.404954° E');
      expect(await launchedBy(context, pathOf('geo'), 'a.primary')).toBe('geo:52.520008,13.404954');
      await page.getByRole('link', { name: 'Apple Maps' }).click();
      await page.waitForURL('https://maps.apple.com/?ll=52.520008,13.404954&q=52.520008,13.404954');
      await page.goBack();
      await page.getByRole('link', { name: 'Google Maps' }).click();
      await page.waitForURL('https://www.google.com/maps/search/?api=1&query=52.520008%2C13.404954');
    });

    it('text: shown as written; only the http(s) address is a link', async () => {
      const { page } = await open(context, pathOf('text-links'));
      expect(await page.locator('.text').textContent()).toBe(LANDING_SAMPLES.find((sample) => sample.name === 'text-links')!.content.text);
      const links = await page.locator('.text a').evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
      expect(links).toEqual(['https://example.com/fair?day=1']);
      await page.locator('.text a').click();
      await page.waitForURL('https://example.com/fair?day=1');
      const short = await open(context, pathOf('text'));
      expect(await short.page.locator('h1').innerText()).toBe('Table 12, ask for the special');
    });
  });

  it('page views are scans; downloads are not, and answer like the page for paused, expired and unknown codes', async () => {
    const vcard = codes.get('vcard')!;
    const before = await scansOf(vcard.id!);
    const view = await t.request({ method: 'GET', url: vcard.path, headers: { 'user-agent': IPHONE } });
    expect(view.statusCode).toBe(200);
    for (let i = 0; i < 3; i++) {
      const file = await t.request({ method: 'GET', url: `${vcard.path}/contact.vcf`, headers: { 'user-agent': IPHONE } });
      expect(file.statusCode).toBe(200);
      expect(file.headers).toMatchObject({
        'content-type': 'text/vcard; charset=utf-8',
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      });
    }
    const ics = await t.request({ method: 'GET', url: `${codes.get('event')!.path}/event.ics` });
    expect(ics.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(ics.headers['content-disposition']).toBe('attachment; filename="Spring open day.ics"');
    expect(await scansOf(vcard.id!)).toBe(before + 1);

    const downloads = [
      [`${vcard.path}/event.ics`, 404],
      [`${codes.get('event')!.path}/contact.vcf`, 404],
      [`${pathOf('paused')}/contact.vcf`, 410],
      [`${pathOf('expired')}/event.ics`, 410],
      [`/r/${UNKNOWN_CODE}/contact.vcf`, 404],
      ['/r/not-a-code!/contact.vcf', 404],
    ] as const;
    for (const [url, status] of downloads) {
      const res = await t.request({ method: 'GET', url });
      expect({ url, status: res.statusCode, type: res.headers['content-type'] }).toEqual({ url, status, type: 'text/html; charset=utf-8' });
    }
    expect(await scansOf(codes.get('paused')!.id!)).toBe(0);
  });

  it('a changed code shows its new content at once (the kept page belongs to the old version)', async () => {
    const code = await createQr(t, key, { type: 'phone', content: { number: '+49 30 1111111' }, is_dynamic: true });
    expect((await t.request({ method: 'GET', url: `/r/${code.short_code}` })).body).toContain('tel:+49301111111');
    expectStatus(await updateQr(t, key, code.id, { content: { number: '+49 30 2222222' } }), 200);
    const page = (await t.request({ method: 'GET', url: `/r/${code.short_code}` })).body;
    expect(page).toContain('tel:+49302222222');
    expect(page).not.toContain('1111111');
  });

  itWhen(HAS_POSTGRES)('unavailable: the 503 page, in the same design, while the database is unreachable', async () => {
    const serverUrl = process.env.DATABASE_URL!;
    const proxy = TcpOutageProxy.forUrl(serverUrl, 5432);
    await proxy.start();
    const cut = await startTestApp(GENEROUS_RATE_LIMIT, {
      databaseUrl: (clone) => {
        const through = new URL(clone);
        through.hostname = '127.0.0.1';
        through.port = String(proxy.port);
        return through.toString();
      },
    });
    try {
      const cutOrigin = await listenOnLoopback(cut.app);
      await proxy.cut();
      for (const viewport of ['phone', 'desktop'] as const) {
        for (const colorScheme of ['light', 'dark'] as const) {
          const context = await browser.newContext({ ...VIEWPORTS[viewport], colorScheme });
          const page = await context.newPage();
          const response = await page.goto(`${cutOrigin}/r/${UNKNOWN_CODE}`);
          expect(response?.status()).toBe(503);
          expect(await page.locator('h1').innerText()).toBe('Temporarily unavailable');
          expect(await page.evaluate(() => getComputedStyle(document.querySelector('main')!).borderTopLeftRadius)).toBe('20px');
          await expectNoSeriousAxeFindings(page, `unavailable ${viewport} ${colorScheme}`);
          await context.close();
        }
      }
    } finally {
      await proxy.restore();
      await cut.close();
      await proxy.cut();
    }
  });
});
