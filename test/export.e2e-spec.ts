/**
 * GET /api/v1/qrcodes/:id/export: every file decodes (PNG with the four decoders, PDF rasterised by
 * pdftoppm), headers and names, print safety, caching, and bad input in the error shape.
 */
import { decodePng, flattenOnWhite } from './support/png-reader';
import { rasterisePdf } from './support/pdf-raster';
import { rasteriseSvg } from './support/decode-svg';
import { decodeWithAll, misreadBy, stopZxingCpp1Reader } from './support/qr-decoders';
import { auth, createQr, expectErrorBody, expectFieldErrors, GENEROUS_RATE_LIMIT, NO_SUCH_ID, updateQr } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';
import { pngResolution } from '../src/rendering/export/png-file';

const exportUrl = (id: string, query = '') => `/api/v1/qrcodes/${id}/export${query}`;
const LONG_URL = 'https://example.com/' + 'abcdefghij'.repeat(12);

describe('export (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key } = await t.newAccount());
  });
  afterAll(async () => {
    stopZxingCpp1Reader();
    await t.close();
  });

  const download = (id: string, query = '', headers: Record<string, string> = {}, apiKey = key) =>
    t.request({ method: 'GET', url: exportUrl(id, query), headers: { ...auth(apiKey), ...headers } });

  it('PNG of a dynamic code: attachment named after the code, resolution in the file, read by every decoder', async () => {
    const code = await createQr(t, key, {
      name: 'Menü "Sommer"/2026',
      is_dynamic: true,
      style: { frameOptions: { type: 'banner-bottom', text: 'Scan me' } },
    });
    const res = await download(code.id, '?format=png&size=1000&dpi=300');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Menu _Sommer_2026.png"; filename*=UTF-8''Men%C3%BC%20_Sommer_2026.png`);
    expect(Number(res.headers['x-qr-module-size-mm'])).toBeGreaterThan(0.33);
    expect(res.headers.warning).toBeUndefined();
    const png = res.rawPayload;
    expect(pngResolution(png)).toBe(300);
    const image = decodePng(png);
    expect(image.width).toBeGreaterThan(1000); // the frame adds to the code's 1000 px
    expect(misreadBy(await decodeWithAll(flattenOnWhite(image)), code.dynamic_url)).toEqual([]);
  });

  it('PDF sized in millimetres with a bleed: a page of that size that pdftoppm rasterises to a code every decoder reads', async () => {
    const code = await createQr(t, key, {
      name: 'Poster',
      style: { dotsOptions: { type: 'rounded', color: '#0d47a1' }, backgroundOptions: { color: '#fffde7' } },
    });
    const res = await download(code.id, '?format=pdf&width_mm=40&dpi=300&bleed_mm=3');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('filename="Poster.pdf"');
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const raster = rasterisePdf(pdf, 254); // 10 px per mm
    expect(Math.abs(raster.width - 460)).toBeLessThanOrEqual(1); // 40 mm + 2 × 3 mm of bleed, give or take pdftoppm's rounding
    expect(misreadBy(await decodeWithAll(raster), code.content_string)).toEqual([]);
  });

  it('SVG sized in millimetres, with the image CSP', async () => {
    const code = await createQr(t, key);
    const res = await download(code.id, '?format=svg&width_mm=25.5');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(res.body).toMatch(/^<svg[^>]*\swidth="25.5mm"/);
    expect(misreadBy(await decodeWithAll(rasteriseSvg(res.body, 600)), code.content_string)).toEqual([]);
  });

  it('refuses a printed width whose modules would be under 0.33 mm, naming width_mm and the smallest that works', async () => {
    const code = await createQr(t, key, { type: 'text', content: { text: LONG_URL } });
    const [error] = expectFieldErrors(await download(code.id, '?format=pdf&width_mm=12'), 'width_mm');
    const smallest = Number(/use width_mm (\d+) or more/.exec(error.message)?.[1]);
    expect(smallest).toBeGreaterThan(12);
    const fits = await download(code.id, `?format=pdf&width_mm=${smallest}`);
    expect(fits.statusCode).toBe(200);
    expect(Number(fits.headers['x-qr-module-size-mm'])).toBeGreaterThanOrEqual(0.33);
    expectFieldErrors(await download(code.id, `?format=pdf&width_mm=${smallest - 1}`), 'width_mm');
  });

  it('answers a pixel size with modules under 2 px, with a Warning naming the size that decodes (/image too)', async () => {
    const code = await createQr(t, key, { type: 'text', content: { text: LONG_URL.repeat(3) } });
    const small = await download(code.id, '?format=png&size=100');
    expect(small.statusCode).toBe(200);
    expect(small.headers.warning).toMatch(/^199 - "modules are .* px wide.*use size \d+ or more"$/);
    const image = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}/image?size=100`, headers: auth(key) });
    expect(image.statusCode).toBe(200);
    expect(image.headers.warning).toMatch(/^199 - ".*use size \d+ or more"$/);
    expect((await download(code.id, '?format=png&size=1500')).headers.warning).toBeUndefined();
  });

  it('caches per version and parameters: ETag and 304, a new ETag after a style change', async () => {
    const code = await createQr(t, key);
    const first = await download(code.id, '?format=png&size=400');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    const again = await download(code.id, '?format=png&size=400', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.headers['x-qr-module-size-mm']).toBe(first.headers['x-qr-module-size-mm']);
    expect((await download(code.id, '?format=png&size=401')).headers.etag).not.toBe(etag);
    expect((await download(code.id, '?format=png&size=400')).rawPayload.equals(first.rawPayload)).toBe(true);
    expect((await updateQr(t, key, code.id, { style: { dotsOptions: { color: '#1b5e20' } } })).statusCode).toBe(200);
    const changed = await download(code.id, '?format=png&size=400', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it.each([
    ['?format=gif', 'format'],
    ['?size=99', 'size'],
    ['?size=4001', 'size'],
    ['?size=12.5', 'size'],
    ['?width_mm=9', 'width_mm'],
    ['?width_mm=1001', 'width_mm'],
    ['?dpi=71', 'dpi'],
    ['?dpi=1201', 'dpi'],
    ['?size=500&width_mm=40', 'width_mm'],
    ['?format=png&bleed_mm=3', 'bleed_mm'],
    ['?format=pdf&bleed_mm=21', 'bleed_mm'],
    ['?format=png&width_mm=500&dpi=600', 'dpi'],
    ['?colour=red', 'colour'],
  ])('refuses %s naming %s', async (query, field) => {
    const code = await createQr(t, key);
    expectFieldErrors(await download(code.id, query), field);
  });

  it("refuses a frame whose text would be too small at the size asked, naming the size; another account's code is 404", async () => {
    const code = await createQr(t, key, { style: { frameOptions: { type: 'bubble', text: 'Scan for the full menu & more' } } });
    const [bySize] = expectFieldErrors(await download(code.id, '?format=png&size=100'), 'size');
    expect(bySize.message).toMatch(/use size \d+ or more/);
    expectFieldErrors(await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}/image?size=100`, headers: auth(key) }), 'size');
    expectFieldErrors(await download(code.id, '?format=pdf&width_mm=20'), 'width_mm');
    const other = await t.newAccount();
    expectErrorBody(await download(code.id, '', {}, other.key), 404);
    expectErrorBody(await download(NO_SUCH_ID), 404);
  });

  it('refuses at create a frame text the font cannot draw, and a text colour without contrast', async () => {
    const create = (style: Record<string, unknown>) =>
      t.request({ method: 'POST', url: '/api/v1/qrcodes', headers: auth(key), payload: { type: 'text', content: { text: 'x' }, style } });
    expectFieldErrors(await create({ frameOptions: { type: 'banner-bottom', text: 'スキャン' } }), 'style.frameOptions.text');
    expectFieldErrors(await create({ frameOptions: { type: 'banner-bottom', text: 'x'.repeat(31) } }), 'style.frameOptions.text');
    expectFieldErrors(await create({ frameOptions: { type: 'banner-top', color: '#000000', textColor: '#222222' } }), 'style.frameOptions.textColor');
    expectFieldErrors(await create({ frameOptions: { type: 'box', color: '#eeeeee' } }), 'style.frameOptions.color');
    expectFieldErrors(await create({ frameOptions: { type: 'ribbon' } }), 'style.frameOptions.type');
    expect((await create({ frameOptions: { type: 'box', text: 'Сканируй меня', font: 'roboto' } })).statusCode).toBe(201);
  });
});
