import { MetricsService } from '../src/infra/observability/metrics.service';
import { decodeSvg } from './support/decode-svg';
import { readWidths } from './support/qr-decoders';
import { auth, CONTENT_SAMPLES, createQr, eventually, expectStatus, GENEROUS_RATE_LIMIT, NO_SUCH_ID, QR_TYPES, updateQr } from './support/factories';
import { TcpOutageProxy } from './support/tcp-outage-proxy';
import { describeWhen, HAS_REDIS } from './support/environment';
import { startTestApp, type TestApp } from './support/test-app';

const imageUrl = (id: string, query = '') => `/api/v1/qrcodes/${id}/image${query}`;

describe('images (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key } = await t.newAccount());
  });
  afterAll(() => t.close());

  async function image(id: string, query = '', headers: Record<string, string> = {}) {
    return t.request({ method: 'GET', url: imageUrl(id, query), headers: { ...auth(key), ...headers } });
  }

  describe('every type decodes back to exactly what it encodes', () => {
    const texts = {
      ...Object.fromEntries(QR_TYPES.map((type) => [type, CONTENT_SAMPLES[type]])),
      'text (accents, emoji, CJK)': { content: { text: 'Crème brûlée 😀 日本語のテキスト' }, contentString: 'Crème brûlée 😀 日本語のテキスト' },
    } as Record<string, { content: Record<string, unknown>; contentString: string }>;

    it.each(Object.keys(texts))('%s, static and dynamic, at sizes 100, 300 and 2000', async (label) => {
      const type = label.split(' ')[0];
      const sample = texts[label];
      const staticCode = await createQr(t, key, { type, content: sample.content });
      const dynamicCode = await createQr(t, key, { type, content: sample.content, is_dynamic: true });
      expect(staticCode.content_string).toBe(sample.contentString);
      for (const size of [100, 300, 2000]) {
        // The 2000 px document is rasterised at 1000 px to keep the suite fast (one test below decodes at full size).
        const raster = { width: Math.min(size, 1000) };
        const plain = await image(staticCode.id, `?size=${size}`);
        expect(plain.statusCode).toBe(200);
        expect(plain.body).toMatch(new RegExp(`^<svg[^>]*\\swidth="${size}"`));
        expect(decodeSvg(plain.body, raster)).toBe(sample.contentString);
        const dynamic = await image(dynamicCode.id, `?size=${size}`);
        expect(decodeSvg(dynamic.body, raster)).toBe(dynamicCode.dynamic_url);
      }
    });
  });

  it('answers an SVG document with the spec headers, sized, with a viewBox and merged modules', async () => {
    const code = await createQr(t, key, { style: { dotsOptions: { color: '#1a237e' }, backgroundOptions: { color: '#fffde7' } } });
    const res = await image(code.id, '?size=512');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(res.headers.etag).toMatch(/^".+"$/);
    expect(res.body).toMatch(/^<svg[^>]*\swidth="512"[^>]*>/);
    expect(res.body).toMatch(/^<svg[^>]*\sheight="512"/);
    expect(res.body).toMatch(/^<svg[^>]*\sviewBox="/);
    expect(res.body.toLowerCase()).toContain('#1a237e');
    expect(res.body.toLowerCase()).toContain('#fffde7');
    expect((res.body.match(/<path/g) ?? []).length).toBeLessThanOrEqual(4);
    expect((res.body.match(/<rect/g) ?? []).length).toBeLessThanOrEqual(2);
    expect(res.body).not.toMatch(/<script|on\w+=|href="http/i);
    expect(decodeSvg(res.body)).toBe(code.content_string);
  });

  it('decodes a 2000 px image rasterised at its full size', async () => {
    const code = await createQr(t, key, { type: 'vcard', content: CONTENT_SAMPLES.vcard.content });
    const res = await image(code.id, '?size=2000');
    expect(decodeSvg(res.body)).toBe(CONTENT_SAMPLES.vcard.contentString);
  });

  it('defaults to size 300', async () => {
    const code = await createQr(t, key);
    expect((await image(code.id)).body).toMatch(/^<svg[^>]*\swidth="300"/);
  });

  it.each([
    ['?size=99', 'size'],
    ['?size=2001', 'size'],
    ['?size=abc', 'size'],
    ['?size=300.5', 'size'],
    ['?format=png', 'format'],
    ['?format=SVG2', 'format'],
  ])('400 for %s naming %s', async (query, field) => {
    const code = await createQr(t, key);
    const res = await image(code.id, query);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it("401 without a key, 404 for unknown and other accounts' codes, 400 for a non-UUID id", async () => {
    const code = await createQr(t, key);
    expect((await t.request({ method: 'GET', url: imageUrl(code.id) })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: `${imageUrl(code.id)}?api_key=${key}` })).statusCode).toBe(401);
    expect((await image(NO_SUCH_ID)).statusCode).toBe(404);
    expect((await image('not-a-uuid')).statusCode).toBe(400);
    const other = await t.newAccount();
    const res = await t.request({ method: 'GET', url: imageUrl(code.id), headers: auth(other.key) });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('QR code not found');
  });

  it('serves the second request from the cache and answers 304 to a matching If-None-Match', async () => {
    const metrics = t.app.get(MetricsService);
    const hits = async () => (await metrics.imageCacheHits.get()).values[0]?.value ?? 0;
    const misses = async () => (await metrics.imageCacheMisses.get()).values[0]?.value ?? 0;
    const code = await createQr(t, key);
    const [hits0, misses0] = [await hits(), await misses()];
    const first = await image(code.id, '?size=333');
    expect([await hits(), await misses()]).toEqual([hits0, misses0 + 1]);
    const second = await image(code.id, '?size=333');
    expect([await hits(), await misses()]).toEqual([hits0 + 1, misses0 + 1]);
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);

    const notModified = await image(code.id, '?size=333', { 'if-none-match': first.headers.etag as string });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    const otherSize = await image(code.id, '?size=334', { 'if-none-match': first.headers.etag as string });
    expect(otherSize.statusCode).toBe(200);
  });

  it('renders a fresh image after a content update and after a style update', async () => {
    const code = await createQr(t, key, { content: { url: 'https://example.com/before' } });
    const before = await image(code.id);
    expect(decodeSvg(before.body)).toBe('https://example.com/before');

    expect((await updateQr(t, key, code.id, { content: { url: 'https://example.com/after' } })).statusCode).toBe(200);
    const afterContent = await image(code.id);
    expect(afterContent.headers.etag).not.toBe(before.headers.etag);
    expect(decodeSvg(afterContent.body)).toBe('https://example.com/after');
    const stale = await image(code.id, '', { 'if-none-match': before.headers.etag as string });
    expect(stale.statusCode).toBe(200);

    expect((await updateQr(t, key, code.id, { style: { dotsOptions: { color: '#b71c1c' } } })).statusCode).toBe(200);
    const afterStyle = await image(code.id);
    expect(afterStyle.body.toLowerCase()).toContain('#b71c1c');
    expect(decodeSvg(afterStyle.body)).toBe('https://example.com/after');
  });

  it('encodes the short link after a static code is upgraded to dynamic', async () => {
    const code = await createQr(t, key);
    expect(decodeSvg((await image(code.id)).body)).toBe(code.content_string);
    await updateQr(t, key, code.id, { is_dynamic: true });
    const upgraded = (await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}`, headers: auth(key) })).json();
    expect(decodeSvg((await image(code.id)).body)).toBe(upgraded.dynamic_url);
  });

  describe('X-QR-Min-Decodable-Size: the smallest size whose image decodes', () => {
    // 1,000 bytes: 121 modules at level M, so 2 px modules from 242 px, and a one-module border from 246; at 100 px a module is 0.83 px.
    const LONG_TEXT = 'a'.repeat(1000);
    const minDecodableSize = (res: { headers: Record<string, unknown> }) => Number(res.headers['x-qr-min-decodable-size']);

    it('a 1,000-byte code: 100 px is answered but decodes with none of the four decoders; at the size named, all four read it', async () => {
      const code = await createQr(t, key, { type: 'text', content: { text: LONG_TEXT } });
      const small = await image(code.id, '?size=100');
      expect(small.statusCode).toBe(200);
      expect(minDecodableSize(small)).toBe(246);
      expect(await readWidths(small.body, 100, LONG_TEXT)).toEqual({ jsqr: null, zxing: null, zxing1: null, zbar: null });

      const named = await image(code.id, `?size=${minDecodableSize(small)}`);
      expect(minDecodableSize(named)).toBe(246);
      // Every decoder at the image's own raster (zbar missed it at 242, where the code touched the image's edge).
      expect(await readWidths(named.body, 246, LONG_TEXT, { nativeOnly: true })).toEqual({ jsqr: 246, zxing: 246, zxing1: 246, zbar: 246 });
    }, 60_000);

    it('depends on the style (a circle needs a larger image), and is 100 for a short text', async () => {
      const circle = await createQr(t, key, { type: 'text', content: { text: LONG_TEXT }, style: { shape: 'circle' } });
      const res = await image(circle.id, '?size=400');
      expect(minDecodableSize(res)).toBe(Math.ceil(2 * 121 * Math.SQRT2));
      expect(decodeSvg(res.body)).toBe(LONG_TEXT);
      const short = await createQr(t, key);
      expect(minDecodableSize(await image(short.id, '?size=100'))).toBe(100);
      const dynamic = await createQr(t, key, { type: 'text', content: { text: LONG_TEXT }, is_dynamic: true });
      const link = await image(dynamic.id, '?size=100');
      expect(minDecodableSize(link)).toBe(100);
      expect(decodeSvg(link.body)).toBe(dynamic.dynamic_url);
    });

    it('is on cached answers and 304s, and follows a content update', async () => {
      const code = await createQr(t, key, { type: 'text', content: { text: LONG_TEXT } });
      const first = await image(code.id, '?size=300');
      const cached = await image(code.id, '?size=300');
      const notModified = await image(code.id, '?size=300', { 'if-none-match': first.headers.etag as string });
      expect(notModified.statusCode).toBe(304);
      expect([first, cached, notModified].map(minDecodableSize)).toEqual([246, 246, 246]);
      expectStatus(await updateQr(t, key, code.id, { content: { text: 'short now' } }), 200);
      expect(minDecodableSize(await image(code.id, '?size=300'))).toBe(100);
    });
  });

  it('forgets cached images when the code is deleted', async () => {
    const code = await createQr(t, key);
    await image(code.id, '?size=300');
    await t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${code.id}`, headers: auth(key) });
    expect((await image(code.id)).statusCode).toBe(404);
  });
});

describeWhen(HAS_REDIS)('images and the API with Redis stopped (e2e)', () => {
  const redisUrl = process.env.REDIS_URL!;
  let proxy: ReturnType<typeof TcpOutageProxy.forUrl>;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    proxy = TcpOutageProxy.forUrl(redisUrl, 6379);
    await proxy.start();
    t = await startTestApp({ REDIS_URL: proxy.proxiedUrl(), ...GENEROUS_RATE_LIMIT });
    ({ key } = await t.newAccount());
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.cut();
  });

  it('keeps answering (uncached, rate limits open) and readiness reports Redis down', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    expect((await t.request({ method: 'GET', url: imageUrl(code.id), headers: auth(key) })).statusCode).toBe(200);

    await proxy.cut();
    const started = Date.now();
    const img = await t.request({ method: 'GET', url: imageUrl(code.id, '?size=400'), headers: auth(key) });
    expect(img.statusCode).toBe(200);
    expect(decodeSvg(img.body)).toBe(code.dynamic_url);
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/qrcodes',
      headers: auth(key),
      payload: { type: 'text', content: { text: 'still works' } },
    });
    expect(created.statusCode).toBe(201);
    const list = await t.request({ method: 'GET', url: '/api/v1/qrcodes', headers: auth(key) });
    expect(list.statusCode).toBe(200);
    const search = await t.request({ method: 'GET', url: '/api/v1/qrcodes?search=still', headers: auth(key) });
    expect(search.json().pagination.total).toBe(1);
    const scan = await t.request({ method: 'GET', url: `/r/${code.short_code}` });
    expect(scan.statusCode).toBe(302);
    expect(Date.now() - started).toBeLessThan(5000);

    const ready = await t.request({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'degraded', components: { database: { status: 'up' }, redis: { status: 'down' } } });

    await proxy.restore();
    const redisStatus = async () => (await t.request({ method: 'GET', url: '/health/ready' })).json().components.redis.status;
    expect(await eventually(redisStatus, 'up', 10_000)).toBe('up');
  });
});
