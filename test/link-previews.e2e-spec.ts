import { load } from 'cheerio';
import { PREVIEW_BOTS } from '../src/redirect/previews/preview-bots';
import { ScanBuffer } from '../src/scans/scan-buffer.service';
import { decodeRaster } from './support/decode-svg';
import { auth, createQr, expectFieldErrors, expectStatus, GENEROUS_RATE_LIMIT, updateQr } from './support/factories';
import { decodePng } from './support/png-reader';
import { startTestApp, type TestApp } from './support/test-app';
import { USER_AGENTS } from './support/user-agents';

const CARD = 'https://cdn.example.com/cards/spring.png?w=1200&h=630';

/**
 * Link previews through the real redirect host (docs/sharing.md#link-previews): each preview bot
 * of our list gets the Open Graph page of a code with a preview, people get the redirect (smart
 * links included), no bot is counted, and the card's own QR image is served without a key.
 */
describe('link previews (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key } = await t.newAccount());
  });
  afterAll(() => t?.close());

  const visit = (path: string, userAgent: string, host?: string) =>
    t.request({ method: 'GET', url: path, headers: { 'user-agent': userAgent, ...(host ? { host } : {}) } });
  const scansOf = async (id: string) => (await t.request({ method: 'GET', url: `/api/v1/qrcodes/${id}`, headers: auth(key) })).json().scans as number;
  const tags = (html: string) => {
    const $ = load(html);
    const content = (selector: string) => $(selector).attr('content');
    return {
      title: content('meta[property="og:title"]'),
      description: content('meta[property="og:description"]'),
      image: content('meta[property="og:image"]'),
      url: content('meta[property="og:url"]'),
      card: content('meta[name="twitter:card"]'),
      twitterTitle: content('meta[name="twitter:title"]'),
      twitterImage: content('meta[name="twitter:image"]'),
    };
  };

  describe('the preview field', () => {
    it('is stored on create, shown, changed by an update and cleared by null', async () => {
      const code = await createQr(t, key, { is_dynamic: true, preview: { title: 'Spring menu' } });
      const read = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}`, headers: auth(key) });
      expect(read.json().preview).toEqual({ title: 'Spring menu' });
      const updated = await updateQr(t, key, code.id, { preview: { title: 'Summer', description: 'Cold drinks', image_url: CARD } });
      expectStatus(updated, 200);
      expect(updated.json().qrcode.preview).toEqual({ title: 'Summer', description: 'Cold drinks', image_url: CARD });
      const cleared = await updateQr(t, key, code.id, { preview: null });
      expect(cleared.json().qrcode.preview).toBeNull();
      const plain = await createQr(t, key, { is_dynamic: true });
      expect((await t.request({ method: 'GET', url: `/api/v1/qrcodes/${plain.id}`, headers: auth(key) })).json().preview).toBeNull();
    });

    it.each([
      ['a relative image URL', { image_url: '/card.png' }, 'preview.image_url'],
      ['a javascript: image URL', { image_url: 'javascript:alert(1)' }, 'preview.image_url'],
      ['an ftp image URL', { image_url: 'ftp://example.com/card.png' }, 'preview.image_url'],
      ['a blank title', { title: '  ' }, 'preview.title'],
      ['a number as description', { description: 42 }, 'preview.description'],
      ['a title of 201 characters', { title: 'x'.repeat(201) }, 'preview.title'],
      ['an unknown field', { video: 'https://example.com/v.mp4' }, 'preview.video'],
      ['an empty object', {}, 'preview'],
      ['a string', 'Spring', 'preview'],
    ])('refuses %s, naming the field', async (_case, preview, field) => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/qrcodes',
        headers: auth(key),
        payload: { type: 'url', content: { url: 'https://example.com/a' }, is_dynamic: true, preview },
      });
      expectFieldErrors(res, field);
    });

    it('applies to dynamic codes only', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/qrcodes',
        headers: auth(key),
        payload: { type: 'url', content: { url: 'https://example.com/a' }, preview: { title: 'Static' } },
      });
      expectFieldErrors(res, 'preview');
    });
  });

  describe('on the redirect host', () => {
    let code: Record<string, any>;

    beforeAll(async () => {
      code = await createQr(t, key, {
        is_dynamic: true,
        content: { url: 'https://example.com/menu' },
        preview: { title: 'Spring "menu" <b>now</b>', description: 'Three courses & a view', image_url: CARD },
      });
    });

    it.each(PREVIEW_BOTS.map((bot) => [bot.name, bot.sample]))('answers %s with the preview page, and does not count it', async (_name, agent) => {
      const res = await visit(`/r/${code.short_code}`, agent);
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['cache-control']).toBe('no-store');
      expect(tags(res.body)).toEqual({
        title: 'Spring "menu" <b>now</b>',
        description: 'Three courses & a view',
        image: CARD,
        url: code.dynamic_url,
        card: 'summary_large_image',
        twitterTitle: 'Spring "menu" <b>now</b>',
        twitterImage: CARD,
      });
      // Every value escaped: the owner's markup is text, never an element.
      expect(res.body).not.toContain('<b>');
      expect(res.body).toContain('&amp;h=630');
      expect(await scansOf(code.id)).toBe(0);
    });

    it('records the bots as bot visits only: none counted, people are', async () => {
      const people = await visit(`/r/${code.short_code}`, USER_AGENTS.iphone.ua);
      expect(people.statusCode).toBe(302);
      expect(people.headers.location).toBe('https://example.com/menu');
      expect(await scansOf(code.id)).toBe(1);
      await t.app.get(ScanBuffer).flush();
      const events = await t.prisma.scanEvent.findMany({ where: { qrCodeId: code.id } });
      expect(events.filter((event) => event.isBot)).toHaveLength(PREVIEW_BOTS.length);
      expect(events.filter((event) => !event.isBot)).toHaveLength(1);
    });

    it.each([
      ['Safari on iPhone', USER_AGENTS.iphone.ua],
      ['Chrome on Android', USER_AGENTS.pixel.ua],
      ['Googlebot (a crawler, not a preview bot)', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    ])('redirects %s as before', async (_name, agent) => {
      const res = await visit(`/r/${code.short_code}`, agent);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('https://example.com/menu');
    });

    it('redirects bots to a code without a preview, so the card shows the destination', async () => {
      const plain = await createQr(t, key, { is_dynamic: true, content: { url: 'https://example.com/plain' } });
      const res = await visit(`/r/${plain.short_code}`, PREVIEW_BOTS[0].sample);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('https://example.com/plain');
    });

    it('leaves smart links unchanged for people, and shows bots the preview', async () => {
      const smart = await createQr(t, key, {
        is_dynamic: true,
        content: { url: 'https://example.com/default' },
        rules: [{ conditions: { os: ['ios'] }, target: 'https://example.com/ios' }],
        preview: { title: 'Get the app' },
      });
      expect((await visit(`/r/${smart.short_code}`, USER_AGENTS.iphone.ua)).headers.location).toBe('https://example.com/ios');
      expect((await visit(`/r/${smart.short_code}`, USER_AGENTS.pixel.ua)).headers.location).toBe('https://example.com/default');
      const bot = await visit(`/r/${smart.short_code}`, PREVIEW_BOTS[1].sample);
      expectStatus(bot, 200);
      expect(tags(bot.body).title).toBe('Get the app');
    });

    it("shows the code's own QR image when no image is set: a PNG served without a key that decodes to the short link", async () => {
      const own = await createQr(t, key, { is_dynamic: true, preview: { title: 'Scan me' } });
      const page = tags((await visit(`/r/${own.short_code}`, PREVIEW_BOTS[0].sample)).body);
      expect(page.image).toBe(`${own.dynamic_url}/qr.png`);
      expect(page.card).toBe('summary');
      const image = await visit(new URL(page.image!).pathname, PREVIEW_BOTS[0].sample);
      expectStatus(image, 200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.headers['cache-control']).toBe('public, max-age=3600');
      expect(decodeRaster(decodePng(image.rawPayload))).toBe(own.dynamic_url);
      const again = await t.request({ method: 'GET', url: new URL(page.image!).pathname, headers: { 'if-none-match': String(image.headers.etag) } });
      expect(again.statusCode).toBe(304);
      // Viewing the image is not a scan.
      expect(await scansOf(own.id)).toBe(0);
    });

    it('serves no QR image for a code without a preview, a paused one or an unknown one', async () => {
      const plain = await createQr(t, key, { is_dynamic: true });
      expect((await visit(`/r/${plain.short_code}/qr.png`, USER_AGENTS.iphone.ua)).statusCode).toBe(404);
      const paused = await createQr(t, key, { is_dynamic: true, preview: { title: 'Paused' } });
      expectStatus(await updateQr(t, key, paused.id, { status: 'paused' }), 200);
      expect((await visit(`/r/${paused.short_code}/qr.png`, USER_AGENTS.iphone.ua)).statusCode).toBe(404);
      expect((await visit('/r/doesnotexist/qr.png', USER_AGENTS.iphone.ua)).statusCode).toBe(404);
    });

    it('answers on a branded domain with its own short link and image', async () => {
      const created = await t.request({ method: 'POST', url: '/api/v1/domains', headers: auth(key), payload: { hostname: 'go.brand.example' } });
      expectStatus(created, 201);
      const domainId = created.json().id;
      await t.prisma.domain.update({ where: { id: domainId }, data: { status: 'verified', verifiedAt: new Date() } });
      const branded = await createQr(t, key, { is_dynamic: true, domain_id: domainId, short_code: 'spring-card', preview: { title: 'Brand' } });
      expect(branded.dynamic_url).toBe('https://go.brand.example/r/spring-card');
      const page = tags((await visit('/r/spring-card', PREVIEW_BOTS[0].sample, 'go.brand.example')).body);
      expect(page).toMatchObject({ title: 'Brand', url: branded.dynamic_url, image: `${branded.dynamic_url}/qr.png` });
      const image = await visit('/r/spring-card/qr.png', PREVIEW_BOTS[0].sample, 'go.brand.example');
      expectStatus(image, 200);
      expect(decodeRaster(decodePng(image.rawPayload))).toBe(branded.dynamic_url);
      // Not on the default host: the code lives on its domain only.
      expect((await visit('/r/spring-card/qr.png', PREVIEW_BOTS[0].sample)).statusCode).toBe(404);
      expect((await visit('/r/spring-card', USER_AGENTS.iphone.ua, 'go.brand.example')).statusCode).toBe(302);
    });
  });
});
