import type { Browser } from 'playwright-core';
import { badgeLogo } from '../src/rendering/__fixtures__/png-data-uri';
import { IMAGE_CSP } from '../src/images/images.controller';
import { launchChromium, listenOnLoopback } from './support/browser';
import { auth, createQr, expectFieldErrors, expectStatus, GENEROUS_RATE_LIMIT, updateQr } from './support/factories';
import { decodePng } from './support/png-reader';
import { DECODER_NAMES, readWidths } from './support/qr-decoders';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Styles through the API (docs/styling-and-scannability.md): the interface's own style values are
 * accepted and their images read by jsQR, zxing and zbar, single and bulk; unset finder parts get
 * scannable defaults instead of refusals; the style check answers the verdict create reaches; the
 * image's CSP lets a browser show the logo.
 */

const gradient = (rotation: number) => ({
  rotation,
  colorStops: [
    { offset: 0, color: '#0d47a1' },
    { offset: 1, color: '#4a148c' },
  ],
});

/** The values the interface spec names for `style` (rounded and dots dots, extra-rounded corners, gradients in degrees). */
const SPEC_STYLES: Record<string, Record<string, unknown>> = {
  'rounded dots': { dotsOptions: { type: 'rounded', color: '#1a237e' } },
  'dots dots': { dotsOptions: { type: 'dots' } },
  'dots dots with a colour': { dotsOptions: { type: 'dots', color: '#222222' }, backgroundOptions: { color: '#ffffff' } },
  'extra-rounded corners': { dotsOptions: { type: 'rounded' }, cornersSquareOptions: { type: 'extra-rounded', color: '#0d47a1' } },
  'dots with extra-rounded corners': { dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'extra-rounded' } },
  'gradient rotated 45 degrees': { dotsOptions: { type: 'rounded', gradient: gradient(45) } },
  'gradient rotated 270 degrees on dots': {
    dotsOptions: { type: 'dots', gradient: gradient(270) },
    cornersSquareOptions: { type: 'extra-rounded', color: '#1a237e' },
  },
  'circle with dots and square corners': { shape: 'circle', dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'square' } },
};

describe('styles (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key } = await t.newAccount());
  });
  afterAll(() => t.close());

  const image = (id: string, size: number) => t.request({ method: 'GET', url: `/api/v1/qrcodes/${id}/image?size=${size}`, headers: auth(key) });

  async function expectDecodes(id: string, text: string, sizes: readonly number[] = [100, 300]): Promise<void> {
    for (const size of sizes) {
      const res = await image(id, size);
      expectStatus(res, 200);
      const widths = await readWidths(res.body, size, text);
      expect({ size, missedBy: DECODER_NAMES.filter((name) => widths[name] === null) }).toEqual({ size, missedBy: [] });
    }
  }

  describe('the interface spec’s style values', () => {
    it.each(Object.entries(SPEC_STYLES))('%s: created (201) static and dynamic, and both decode with every decoder', async (_name, style) => {
      const staticCode = await createQr(t, key, { style });
      await expectDecodes(staticCode.id as string, staticCode.content_string as string);
      const dynamicCode = await createQr(t, key, { style, is_dynamic: true });
      await expectDecodes(dynamicCode.id as string, dynamicCode.dynamic_url as string);
    });

    it('are all created in one bulk request, and each bulk item decodes', async () => {
      const items = Object.values(SPEC_STYLES).map((style, index) => ({
        type: 'url',
        content: { url: `https://example.com/bulk/${index}` },
        is_dynamic: index % 2 === 1,
        style,
      }));
      const res = await t.request({ method: 'POST', url: '/api/v1/qrcodes/bulk', headers: auth(key), payload: { qrcodes: items } });
      expectStatus(res, 201);
      const body = res.json<{ created: Array<Record<string, string>>; errors: unknown[] }>();
      expect(body.errors).toEqual([]);
      expect(body.created).toHaveLength(items.length);
      for (const created of body.created) await expectDecodes(created.id, created.dynamic_url ?? created.content_string, [300]);
    });

    it('accepts dots on update too', async () => {
      const code = await createQr(t, key);
      expectStatus(await updateQr(t, key, code.id as string, { style: { dotsOptions: { type: 'dots' } } }), 200);
      await expectDecodes(code.id as string, code.content_string as string, [300]);
    });
  });

  describe('refusals name the field to change', () => {
    const looseCentre = { dotsOptions: { type: 'dots' }, cornersDotOptions: { type: 'dots' } };

    it('refuses a finder centre set to dots on create and update (400)', async () => {
      const create = await t.request({
        method: 'POST',
        url: '/api/v1/qrcodes',
        headers: auth(key),
        payload: { type: 'url', content: { url: 'https://example.com' }, style: looseCentre },
      });
      const [error] = expectFieldErrors(create, 'style.cornersDotOptions.type');
      expect(error.message).toMatch(/use dot or square/);
      const code = await createQr(t, key);
      expectFieldErrors(await updateQr(t, key, code.id as string, { style: looseCentre }), 'style.cornersDotOptions.type');
    });

    it('lists the refused bulk item with its field, and creates the others', async () => {
      const payload = {
        qrcodes: [
          { type: 'url', content: { url: 'https://example.com/a' }, style: { dotsOptions: { type: 'dots' } } },
          { type: 'url', content: { url: 'https://example.com/b' }, style: looseCentre },
        ],
      };
      const res = await t.request({ method: 'POST', url: '/api/v1/qrcodes/bulk', headers: auth(key), payload });
      expectStatus(res, 201);
      const body = res.json<{ created: unknown[]; errors: Array<{ index: number; errors: Array<{ field: string }> }> }>();
      expect(body.created).toHaveLength(1);
      expect(body.errors).toEqual([{ index: 1, errors: [expect.objectContaining({ field: 'style.cornersDotOptions.type' })] }]);
    });
  });

  describe('POST /api/v1/styles/check', () => {
    const check = (payload: unknown) =>
      t.request({ method: 'POST', url: '/api/v1/styles/check', headers: auth(key), payload: payload as Record<string, unknown> });

    it('accepts dots and names the scannable defaults it applies', async () => {
      const res = await check({ style: { dotsOptions: { type: 'dots' } }, content_length: 38 });
      expectStatus(res, 200);
      expect(res.json()).toEqual({
        accepted: true,
        errors: [],
        contrast_ratio: 21,
        logo_coverage: null,
        logo_budget: null,
        error_correction_level: 'M',
        module_count: 29,
        // The default extra-rounded ring needs 3 px per module (the size sweep: zxing-cpp 1.4 missed it at 2 px in large
        // symbols): 3 × (29 + 8) = 111 px.
        pixels_per_module: 3,
        min_size: 111,
        margin_px: null,
        quiet_zone_modules: expect.any(Number),
        defaults_applied: [
          { field: 'style.cornersSquareOptions.type', value: 'extra-rounded', reason: expect.stringMatching(/loose circles/) },
          { field: 'style.cornersDotOptions.type', value: 'dot', reason: expect.stringMatching(/loose circles/) },
        ],
        request_id: expect.any(String),
      });
      expect(res.json<{ quiet_zone_modules: number }>().quiet_zone_modules).toBeGreaterThanOrEqual(4);
    });

    it('answers the smallest size for shapes that need wider modules, and the logo budget', async () => {
      const res = await check({ type: 'dynamic', style: { dotsOptions: { type: 'classy-rounded' }, image: badgeLogo() } });
      expectStatus(res, 200);
      const body = res.json<Record<string, any>>();
      expect(body).toMatchObject({ accepted: true, error_correction_level: 'H', pixels_per_module: 3, logo_coverage: 0.16, logo_budget: 0.18 });
      expect(body.min_size).toBeGreaterThan(100);
      expect(body.min_size).toBeLessThanOrEqual(3 * (body.module_count + 8));
    });

    it.each<[string, Record<string, unknown>, number | undefined]>([
      ['low contrast', { dotsOptions: { color: '#bbbbbb' } }, undefined],
      ['a loose-dots centre', { cornersDotOptions: { type: 'dots' } }, undefined],
      ['a logo too large for its level', { image: badgeLogo(), qrOptions: { errorCorrectionLevel: 'M' } }, undefined],
      ['content too large for level H', { image: badgeLogo() }, 1800],
      ['an unknown key', { dotsOptions: { kind: 'dots' } }, undefined],
      ['a style create accepts', { dotsOptions: { type: 'dots', gradient: gradient(90) } }, 200],
    ])('reaches the verdict create reaches: %s', async (_name, style, contentLength) => {
      const verdict = await check({ style, ...(contentLength === undefined ? {} : { content_length: contentLength }) });
      expectStatus(verdict, 200);
      const content = contentLength === undefined ? { url: 'https://example.com/x' } : { text: 'a'.repeat(contentLength) };
      const create = await t.request({
        method: 'POST',
        url: '/api/v1/qrcodes',
        headers: auth(key),
        payload: { type: contentLength === undefined ? 'url' : 'text', content, style },
      });
      const body = verdict.json<{ accepted: boolean; errors: unknown[] }>();
      expect(body.accepted).toBe(create.statusCode === 201);
      expect(body.errors).toEqual(create.statusCode === 201 ? [] : create.json<{ errors: unknown[] }>().errors);
    });

    it('measures a refused style whose content is past its level’s capacity (200, no module count)', async () => {
      const res = await check({ style: { dotsOptions: { color: '#bbbbbb' } }, content_length: 2332 });
      expectStatus(res, 200);
      expect(res.json()).toMatchObject({
        accepted: false,
        errors: [{ field: 'style.dotsOptions.color', message: expect.stringMatching(/contrast/) }],
        error_correction_level: 'M',
        module_count: null,
        min_size: null,
      });
    });

    it('refuses a malformed request with 400 naming the field', async () => {
      expectFieldErrors(await check({ style: 'dots' }), 'style');
      expectFieldErrors(await check({ style: {}, content_length: 5000 }), 'content_length');
      expectFieldErrors(await check({ style: {}, type: 'animated' }), 'type');
    });

    it('needs an API key', async () => {
      const res = await t.request({ method: 'POST', url: '/api/v1/styles/check', payload: { style: {} } });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('the image opened directly in a browser', () => {
    let browser: Browser;
    let origin: string;

    beforeAll(async () => {
      origin = await listenOnLoopback(t.app);
      browser = await launchChromium();
    }, 60_000);
    afterAll(() => browser?.close());

    /** The colour Chromium paints at the logo's outer band (the badge is orange there) and the CSP it was served with. */
    async function logoPixel(id: string, csp?: string): Promise<{ rgb: number[]; csp: string | undefined }> {
      const context = await browser.newContext({ extraHTTPHeaders: auth(key), viewport: { width: 400, height: 400 } });
      const page = await context.newPage();
      if (csp) {
        // The control: the same image under another policy, to show the check sees a blocked logo.
        await page.route('**/image?*', async (route) => {
          const response = await route.fetch();
          await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': csp } });
        });
      }
      const response = await page.goto(`${origin}/api/v1/qrcodes/${id}/image?size=300`);
      const svg = (await response?.text()) ?? '';
      const [x, y, width, height] = ['x', 'y', 'width', 'height'].map((name) =>
        Number(new RegExp(`<image[^>]*\\s${name}="([\\d.]+)"`).exec(svg)?.[1]),
      );
      const shot = decodePng(
        await page.screenshot({ clip: { x: Math.round(x + width * 0.08), y: Math.round(y + height / 2), width: 1, height: 1 } }),
      );
      await context.close();
      return { rgb: [...shot.pixels.slice(0, 3)], csp: response?.headers()['content-security-policy'] };
    }

    it('is served with a CSP that allows only data: images, and Chromium shows the logo', async () => {
      const code = await createQr(t, key, { style: { dotsOptions: { type: 'dots' }, image: badgeLogo() } });
      expect(IMAGE_CSP).toBe("default-src 'none'; img-src data:");
      const shown = await logoPixel(code.id as string);
      expect(shown.csp).toBe(IMAGE_CSP);
      expect(shown.rgb).toEqual([240, 120, 30]);
      const blocked = await logoPixel(code.id as string, "default-src 'none'");
      expect(blocked.rgb).not.toEqual([240, 120, 30]);
    }, 60_000);
  });
});
