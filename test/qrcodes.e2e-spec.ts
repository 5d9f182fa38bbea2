import {
  auth,
  CONTENT_SAMPLES,
  contentOf,
  countCodes,
  createFolder,
  createQr,
  expectErrorBody,
  expectFieldErrors,
  expectStatus,
  GENEROUS_RATE_LIMIT,
  insertScanEvent,
  getQr,
  ISO_UTC_MS,
  NO_SUCH_ID,
  QR_TYPES,
  qrInput,
  SHORT_CODE,
  updateQr,
  UUID,
} from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const STATIC_CREATE_KEYS = [
  'id',
  'type',
  'name',
  'content_string',
  'content_fields',
  'tags',
  'is_dynamic',
  'status',
  'scans',
  'image_url',
  'created_at',
  'request_id',
];
const DYNAMIC_CREATE_KEYS = [...STATIC_CREATE_KEYS, 'short_code', 'dynamic_url'];
const STATIC_GET_KEYS = [
  'id',
  'name',
  'type',
  'content',
  'content_fields',
  'tags',
  'style_config',
  'folder_id',
  'is_dynamic',
  'status',
  'scans',
  'image_url',
  'created_at',
  'updated_at',
  'request_id',
];
const DYNAMIC_GET_KEYS = [
  ...STATIC_GET_KEYS,
  'short_code',
  'dynamic_url',
  'rules',
  'max_scans',
  'fallback_url',
  'has_password',
  'utm',
  'scan_retention_days',
  'preview',
];
const sorted = (keys: string[]) => [...keys].sort();

/** Content of at most 2000 characters (the text field's limit) that no QR version can hold: 4,000 bytes. */
const TOO_BIG_TEXT = 'é'.repeat(2000);

describe('QR codes: create, get, update, delete (e2e)', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  let otherKey: string;
  let otherAccountId: string;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key, accountId } = await t.newAccount());
    ({ key: otherKey, accountId: otherAccountId } = await t.newAccount());
  });
  afterAll(() => t?.close());

  const post = (payload: unknown, apiKey = key) =>
    t.request({ method: 'POST', url: '/api/v1/qrcodes', headers: auth(apiKey), payload: payload as object });

  describe('create', () => {
    it('returns exactly the create representation of a static code', async () => {
      const res = await post(qrInput('url', { name: 'Spring poster' }));
      expectStatus(res, 201);
      const body = res.json();
      expect(sorted(Object.keys(body))).toEqual(sorted(STATIC_CREATE_KEYS));
      expect(body).toEqual({
        id: expect.stringMatching(UUID),
        type: 'url',
        name: 'Spring poster',
        content_string: CONTENT_SAMPLES.url.contentString,
        content_fields: CONTENT_SAMPLES.url.content,
        tags: [],
        is_dynamic: false,
        status: 'active',
        scans: 0,
        image_url: `http://api.test/api/v1/qrcodes/${body.id}/image`,
        created_at: expect.stringMatching(ISO_UTC_MS),
        request_id: res.headers['x-request-id'],
      });
      expect(Math.abs(Date.parse(body.created_at) - Date.now())).toBeLessThan(60_000);
      const row = await t.prisma.qrCode.findUniqueOrThrow({ where: { id: body.id } });
      expect(row).toMatchObject({ accountId, isDynamic: false, shortCode: null, contentString: CONTENT_SAMPLES.url.contentString });
    });

    it('returns exactly the create representation of a dynamic code, with its short link', async () => {
      const res = await post(qrInput('url', { is_dynamic: true }));
      expectStatus(res, 201);
      const body = res.json();
      expect(sorted(Object.keys(body))).toEqual(sorted(DYNAMIC_CREATE_KEYS));
      expect(body.short_code).toMatch(SHORT_CODE);
      expect(body.dynamic_url).toBe(`http://qr.test/r/${body.short_code}`);
      expect(body.image_url).toBe(`http://api.test/api/v1/qrcodes/${body.id}/image`);
      expect(body).toMatchObject({ is_dynamic: true, status: 'active', scans: 0, created_at: expect.stringMatching(ISO_UTC_MS) });
      expect(body.short_code).not.toContain(body.id.replace(/-/g, '').slice(0, 7));
      const row = await t.prisma.qrCode.findUniqueOrThrow({ where: { id: body.id } });
      expect(row.shortCode).toBe(body.short_code);
    });

    it('gives each dynamic code its own short code', async () => {
      const codes = await Promise.all([1, 2, 3, 4, 5].map(() => createQr(t, key, { is_dynamic: true })));
      expect(new Set(codes.map((code) => code.short_code)).size).toBe(5);
    });

    it('names a code "<type> QR Code" by default', async () => {
      expect((await createQr(t, key, { type: 'wifi' })).name).toBe('wifi QR Code');
      expect((await createQr(t, key, { type: 'geo' })).name).toBe('geo QR Code');
    });

    it.each(QR_TYPES.map((type) => [type]))('creates a %s code with the right content string, static and dynamic', async (type) => {
      const body = await createQr(t, key, { type });
      expect(body).toMatchObject({ type, name: `${type} QR Code`, content_string: CONTENT_SAMPLES[type].contentString, is_dynamic: false });
      const dynamic = await createQr(t, key, { type, is_dynamic: true });
      expect(dynamic.content_string).toBe(CONTENT_SAMPLES[type].contentString);
      expect(dynamic.dynamic_url).toBe(`http://qr.test/r/${dynamic.short_code}`);
      const stored = await t.prisma.qrCode.findUniqueOrThrow({ where: { id: body.id } });
      expect(stored.content).toEqual(CONTENT_SAMPLES[type].content);
    });

    it('encodes a wifi code exactly as WIFI:T:WPA;S:<ssid>;P:<pw>;;', async () => {
      const body = await createQr(t, key, { type: 'wifi', content: { ssid: 'Home Net', password: 'pa55word', encryption: 'WPA' } });
      expect(body.content_string).toBe('WIFI:T:WPA;S:Home Net;P:pa55word;;');
    });

    it('accepts a name of 100 characters and rejects 101, naming `name`', async () => {
      expect((await createQr(t, key, { name: 'n'.repeat(100) })).name).toBe('n'.repeat(100));
      const before = await countCodes(t, accountId);
      expectFieldErrors(await post(qrInput('url', { name: 'n'.repeat(101) })), 'name');
      expect(await countCodes(t, accountId)).toBe(before);
    });

    it.each(['', '   '])('rejects a blank name %j, naming `name`', async (name) => {
      expectFieldErrors(await post(qrInput('url', { name })), 'name');
    });

    describe('rejections leave no record behind', () => {
      let before: number;
      beforeEach(async () => {
        before = await countCodes(t, accountId);
      });
      afterEach(async () => {
        expect(await countCodes(t, accountId)).toBe(before);
      });

      it('400 without type, without content, or with neither', async () => {
        expectFieldErrors(await post({ content: { url: 'https://example.com' } }), 'type');
        expectFieldErrors(await post({ type: 'url' }), 'content');
        expectFieldErrors(await post({}), 'type', 'content');
      });

      it('400 for an unknown type', async () => {
        const errors = expectFieldErrors(await post({ type: 'bitcoin', content: { address: 'x' } }), 'type');
        expect(errors.find((error) => error.field === 'type')?.message).toMatch(/url/);
      });

      it('400 for content that is not an object', async () => {
        expectFieldErrors(await post({ type: 'url', content: 'https://example.com' }), 'content');
        expectFieldErrors(await post({ type: 'url', content: ['https://example.com'] }), 'content');
      });

      it('400 naming content.<field> for an unknown content field', async () => {
        const errors = expectFieldErrors(await post({ type: 'url', content: { url: 'https://example.com', tracking: true } }), 'content.tracking');
        expect(errors.map((error) => error.field)).not.toContain('content.url');
        expectFieldErrors(await post({ type: 'wifi', content: { ...contentOf('wifi'), url: 'https://example.com' } }), 'content.url');
      });

      it('400 naming a missing required content field', async () => {
        expectFieldErrors(await post({ type: 'url', content: {} }), 'content.url');
        expectFieldErrors(await post({ type: 'wifi', content: { password: 'x', encryption: 'WPA' } }), 'content.ssid');
        expectFieldErrors(await post({ type: 'geo', content: { latitude: 91, longitude: 0 } }), 'content.latitude');
      });

      it('400 for an unknown top-level field', async () => {
        expectFieldErrors(await post(qrInput('url', { colour: 'red' })), 'colour');
      });

      it('400 for wrongly typed top-level fields', async () => {
        expectFieldErrors(await post(qrInput('url', { is_dynamic: 'yes' })), 'is_dynamic');
        expectFieldErrors(await post(qrInput('url', { name: 42 })), 'name');
        expectFieldErrors(await post(qrInput('url', { folder_id: 'not-a-uuid' })), 'folder_id');
        expectFieldErrors(await post(qrInput('url', { style: 'red' })), 'style');
      });

      it('400 naming `content` for static content too large for any QR code', async () => {
        const errors = expectFieldErrors(await post({ type: 'text', content: { text: TOO_BIG_TEXT } }), 'content');
        expect(errors.find((error) => error.field === 'content')?.message).toMatch(/too large/);
      });

      it('400 for a 3,000-character text (above the text field limit of 2,000), static or dynamic', async () => {
        expectFieldErrors(await post({ type: 'text', content: { text: 'x'.repeat(3000) } }), 'content.text');
        expectFieldErrors(await post({ type: 'text', content: { text: 'x'.repeat(3000) }, is_dynamic: true }), 'content.text');
      });

      it.each([
        ['javascript:alert(1)'],
        ['JaVaScRiPt:alert(1)'],
        ['java\tscript:alert(1)'],
        ['data:text/html,<script>alert(1)</script>'],
        ['vbscript:msgbox(1)'],
        ['file:///etc/passwd'],
        ['https://user:secret@example.com/'],
        ['https://user@example.com/'],
        ['example.com/no-scheme'],
      ])('400 naming content.url for the target %j', async (url) => {
        expectFieldErrors(await post({ type: 'url', content: { url } }), 'content.url');
        expectFieldErrors(await post({ type: 'url', content: { url }, is_dynamic: true }), 'content.url');
      });

      it.each([['http://qr.test/r/abc12345'], ['https://qr.test/r/abc12345'], ['http://QR.test./x'], ['http://api.test/api/v1/qrcodes']])(
        "400 for a url target on the service's own host: %s",
        async (url) => {
          const errors = expectFieldErrors(await post({ type: 'url', content: { url }, is_dynamic: true }), 'content.url');
          expect(errors[0].message).toMatch(/own links \(a redirect loop\)/);
        },
      );

      it("400 naming folder_id for another account's folder, and for an unknown folder", async () => {
        const theirs = await createFolder(t, otherKey, 'Theirs');
        expectFieldErrors(await post(qrInput('url', { folder_id: theirs.id })), 'folder_id');
        expectFieldErrors(await post(qrInput('url', { folder_id: NO_SUCH_ID })), 'folder_id');
        expect(await t.prisma.qrCode.count({ where: { folderId: theirs.id } })).toBe(0);
      });

      it('400 naming style.dotsOptions.color for a bad colour, and other style errors by path', async () => {
        const errors = expectFieldErrors(
          await post(qrInput('url', { style: { dotsOptions: { type: 'rounded', color: 'red' } } })),
          'style.dotsOptions.color',
        );
        expect(errors[0].message).toMatch(/hex/);
        expectFieldErrors(await post(qrInput('url', { style: { dotsOptions: { type: 'hexagons' } } })), 'style.dotsOptions.type');
        expectFieldErrors(await post(qrInput('url', { style: { sparkle: true } })), 'style.sparkle');
        expectFieldErrors(
          await post(
            qrInput('url', {
              style: {
                dotsOptions: {
                  gradient: {
                    rotation: 0,
                    colorStops: [
                      { offset: 0, color: '#000' },
                      { offset: 1, color: 'blue' },
                    ],
                  },
                },
              },
            }),
          ),
          'style.dotsOptions.gradient.colorStops[1].color',
        );
      });

      it('400 for a style whose contrast is too low to scan', async () => {
        const res = await post(qrInput('url', { style: { dotsOptions: { color: '#ffffff' }, backgroundOptions: { color: '#ffffff' } } }));
        expectErrorBody(res, 400);
        expect(res.json().errors[0].field).toMatch(/^style\./);
      });

      it('400 for expires_at on a static code and for a past expires_at', async () => {
        const future = new Date(Date.now() + 86_400_000).toISOString();
        expectFieldErrors(await post(qrInput('url', { expires_at: future })), 'expires_at');
        expectFieldErrors(await post(qrInput('url', { is_dynamic: true, expires_at: '2001-01-01T00:00:00.000Z' })), 'expires_at');
      });

      it('401 without a key and with a wrong key', async () => {
        const missing = await t.request({ method: 'POST', url: '/api/v1/qrcodes', payload: qrInput('url') });
        expectErrorBody(missing, 401);
        expectErrorBody(await post(qrInput('url'), 'qr_live_' + 'x'.repeat(40)), 401);
      });
    });

    it('accepts as a dynamic code the content that is too large for a static one', async () => {
      const body = await createQr(t, key, { type: 'text', content: { text: TOO_BIG_TEXT }, is_dynamic: true });
      expect(body.content_string).toBe(TOO_BIG_TEXT);
      expect(body.short_code).toMatch(SHORT_CODE);
    });

    it('accepts a url target on another host and the own host on another port', async () => {
      expect((await createQr(t, key, { content: { url: 'https://qr.test.example.com/x' } })).content_string).toBe('https://qr.test.example.com/x');
      expect((await createQr(t, key, { content: { url: 'http://qr.test:8080/x' } })).content_string).toBe('http://qr.test:8080/x');
    });

    it('creates in one of your folders', async () => {
      const folder = await createFolder(t, key, 'Mine');
      const code = await createQr(t, key, { folder_id: folder.id });
      expect((await getQr(t, key, code.id)).json().folder_id).toBe(folder.id);
    });

    it('stores the style and returns it as the style_config JSON string; "{}" when absent', async () => {
      const style = {
        dotsOptions: {
          type: 'rounded',
          color: '#1a2b3c',
          gradient: {
            rotation: 45,
            colorStops: [
              { offset: 0, color: '#000000' },
              { offset: 1, color: '#333333' },
            ],
          },
        },
        cornersSquareOptions: { type: 'extra-rounded', color: '#000000' },
        backgroundOptions: { color: '#ffffff' },
      };
      const styled = await createQr(t, key, { style });
      const got = (await getQr(t, key, styled.id)).json();
      expect(typeof got.style_config).toBe('string');
      expect(JSON.parse(got.style_config)).toEqual(style);
      const plain = await createQr(t, key);
      expect((await getQr(t, key, plain.id)).json().style_config).toBe('{}');
    });
  });

  describe('get', () => {
    it('returns the get representation of a static code', async () => {
      const created = await createQr(t, key, { type: 'wifi', name: 'Guest wifi' });
      const res = await getQr(t, key, created.id);
      expectStatus(res, 200);
      const body = res.json();
      expect(sorted(Object.keys(body))).toEqual(sorted(STATIC_GET_KEYS));
      expect(body).toEqual({
        id: created.id,
        name: 'Guest wifi',
        type: 'wifi',
        content: CONTENT_SAMPLES.wifi.contentString,
        content_fields: CONTENT_SAMPLES.wifi.content,
        style_config: '{}',
        folder_id: null,
        tags: [],
        is_dynamic: false,
        status: 'active',
        scans: 0,
        image_url: `http://api.test/api/v1/qrcodes/${created.id}/image`,
        created_at: created.created_at,
        updated_at: expect.stringMatching(ISO_UTC_MS),
        request_id: res.headers['x-request-id'],
      });
    });

    it('returns the get representation of a dynamic code with an integer scan count', async () => {
      const created = await createQr(t, key, { is_dynamic: true });
      await t.prisma.qrCode.update({ where: { id: created.id }, data: { scans: 41n } });
      const body = (await getQr(t, key, created.id)).json();
      expect(sorted(Object.keys(body))).toEqual(sorted(DYNAMIC_GET_KEYS));
      expect(body).toMatchObject({
        short_code: created.short_code,
        dynamic_url: created.dynamic_url,
        is_dynamic: true,
        content: CONTENT_SAMPLES.url.contentString,
      });
      expect(body.scans).toBe(41);
      expect(Number.isInteger(body.scans)).toBe(true);
    });

    it('accepts the id in upper case', async () => {
      const created = await createQr(t, key);
      const res = await getQr(t, key, created.id.toUpperCase());
      expectStatus(res, 200);
      expect(res.json().id).toBe(created.id);
    });

    it("404 alike for an unknown id and another account's code; 400 naming id for what is not a UUID", async () => {
      const theirs = await createQr(t, otherKey);
      for (const id of ['not-a-uuid', "1' OR '1'='1", 'x'.repeat(150)]) {
        const res = await getQr(t, key, encodeURIComponent(id));
        expect(expectFieldErrors(res, 'id')).toEqual([{ field: 'id', message: 'id must be a UUID' }]);
        expect(res.json().request_id).toBe(res.headers['x-request-id']);
      }
      const bodies = [];
      for (const id of [NO_SUCH_ID, theirs.id]) {
        const res = await getQr(t, key, encodeURIComponent(id));
        const { request_id, ...rest } = expectErrorBody(res, 404);
        expect(request_id).toBe(res.headers['x-request-id']);
        bodies.push(rest);
      }
      for (const body of bodies) expect(body).toEqual(bodies[0]);
      expect(bodies[0]).toEqual({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
      expect((await getQr(t, otherKey, theirs.id)).statusCode).toBe(200);
    });

    it('401 without a key', async () => {
      const created = await createQr(t, key);
      expectErrorBody(await t.request({ method: 'GET', url: `/api/v1/qrcodes/${created.id}` }), 401);
    });
  });

  describe('update', () => {
    const renderVersion = async (id: string) => (await t.prisma.qrCode.findUniqueOrThrow({ where: { id } })).renderVersion;
    const stored = (id: string) => t.prisma.qrCode.findUniqueOrThrow({ where: { id } });

    it('reads one clock: a new code’s updated_at is its created_at, and an update moves updated_at on from it', async () => {
      const created = await createQr(t, key, { is_dynamic: true });
      const fresh = (await getQr(t, key, created.id)).json<{ created_at: string; updated_at: string }>();
      expect(fresh.updated_at).toBe(fresh.created_at);
      expectStatus(await updateQr(t, key, created.id, { name: 'Later' }), 200);
      const later = (await getQr(t, key, created.id)).json<{ created_at: string; updated_at: string }>();
      expect(later.created_at).toBe(fresh.created_at);
      expect(Date.parse(later.updated_at)).toBeGreaterThanOrEqual(Date.parse(fresh.created_at));
    });

    it('renames only, answering {message, qrcode, request_id}, without bumping the render version', async () => {
      const created = await createQr(t, key, { type: 'wifi', style: { dotsOptions: { color: '#112233' } } });
      const before = await stored(created.id);
      const res = await updateQr(t, key, created.id, { name: 'Renamed' });
      expectStatus(res, 200);
      const { request_id: _getRequestId, ...representation } = (await getQr(t, key, created.id)).json();
      expect(res.json()).toEqual({ message: 'QR code updated', qrcode: representation, request_id: res.headers['x-request-id'] });
      expect(representation).toMatchObject({ name: 'Renamed', content_fields: CONTENT_SAMPLES.wifi.content });
      const after = await stored(created.id);
      expect(after.name).toBe('Renamed');
      expect(after.content).toEqual(before.content);
      expect(after.contentString).toBe(before.contentString);
      expect(after.style).toEqual(before.style);
      expect(after.renderVersion).toBe(before.renderVersion);
      expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
      const got = (await getQr(t, key, created.id)).json();
      expect(got).toMatchObject({
        name: 'Renamed',
        content: CONTENT_SAMPLES.wifi.contentString,
        style_config: '{"dotsOptions":{"color":"#112233"}}',
      });
    });

    it('400 for a name over 100 characters, unchanged', async () => {
      const created = await createQr(t, key, { name: 'Keep' });
      expectFieldErrors(await updateQr(t, key, created.id, { name: 'x'.repeat(101) }), 'name');
      expectFieldErrors(await updateQr(t, key, created.id, { name: ' ' }), 'name');
      expect((await stored(created.id)).name).toBe('Keep');
    });

    it('validates content against the existing type and bumps the render version on a change', async () => {
      const created = await createQr(t, key, { type: 'wifi' });
      const version = await renderVersion(created.id);
      expectFieldErrors(await updateQr(t, key, created.id, { content: { url: 'https://example.com' } }), 'content.url');
      expect(await renderVersion(created.id)).toBe(version);
      expect((await stored(created.id)).contentString).toBe(CONTENT_SAMPLES.wifi.contentString);

      expectStatus(await updateQr(t, key, created.id, { content: { ssid: 'New', password: 'newpass1', encryption: 'WPA' } }), 200);
      expect((await getQr(t, key, created.id)).json().content).toBe('WIFI:T:WPA;S:New;P:newpass1;;');
      expect(await renderVersion(created.id)).toBe(version + 1);
    });

    it('rejects unsafe and looping url targets on update', async () => {
      const created = await createQr(t, key, { is_dynamic: true });
      expectFieldErrors(await updateQr(t, key, created.id, { content: { url: 'javascript:alert(1)' } }), 'content.url');
      expectFieldErrors(await updateQr(t, key, created.id, { content: { url: 'http://qr.test/r/x' } }), 'content.url');
      expect((await stored(created.id)).contentString).toBe(CONTENT_SAMPLES.url.contentString);
    });

    it('rejects static content that no longer fits, accepts it on a dynamic code', async () => {
      const fixed = await createQr(t, key, { type: 'text' });
      expectFieldErrors(await updateQr(t, key, fixed.id, { content: { text: TOO_BIG_TEXT } }), 'content');
      const dynamic = await createQr(t, key, { type: 'text', is_dynamic: true });
      expectStatus(await updateQr(t, key, dynamic.id, { content: { text: TOO_BIG_TEXT } }), 200);
      expect((await stored(dynamic.id)).contentString).toBe(TOO_BIG_TEXT);
    });

    it('checks the capacity of static content against a new style: a higher error-correction level can make it too large', async () => {
      const text = 'x'.repeat(1500); // fits at M (2,331 bytes), not at H (1,273 bytes)
      const created = await createQr(t, key, { type: 'text', content: { text } });
      const errors = expectFieldErrors(await updateQr(t, key, created.id, { style: { qrOptions: { errorCorrectionLevel: 'H' } } }), 'content');
      expect(errors[0].message).toMatch(/error correction H/);
      expect((await stored(created.id)).style).toEqual({});
      expectStatus(await updateQr(t, key, created.id, { style: { qrOptions: { errorCorrectionLevel: 'L' } } }), 200);
      expectFieldErrors(await post({ type: 'text', content: { text }, style: { qrOptions: { errorCorrectionLevel: 'H' } } }), 'content');
    });

    it('replaces the style entirely and bumps the render version', async () => {
      const created = await createQr(t, key, {
        style: { dotsOptions: { type: 'dots', color: '#222222' }, cornersSquareOptions: { type: 'square' }, backgroundOptions: { color: '#ffffff' } },
      });
      const version = await renderVersion(created.id);
      expectStatus(await updateQr(t, key, created.id, { style: { cornersSquareOptions: { type: 'extra-rounded', color: '#000000' } } }), 200);
      expect(JSON.parse((await getQr(t, key, created.id)).json().style_config)).toEqual({
        cornersSquareOptions: { type: 'extra-rounded', color: '#000000' },
      });
      expect(await renderVersion(created.id)).toBe(version + 1);

      expectFieldErrors(await updateQr(t, key, created.id, { style: { dotsOptions: { color: 'blue' } } }), 'style.dotsOptions.color');
      expect(await renderVersion(created.id)).toBe(version + 1);

      expectStatus(await updateQr(t, key, created.id, { style: {} }), 200);
      expect((await getQr(t, key, created.id)).json().style_config).toBe('{}');
    });

    it('moves a code into a folder and out with null; refuses a folder of another account', async () => {
      const folder = await createFolder(t, key, 'Move target');
      const theirs = await createFolder(t, otherKey, 'Not yours');
      const created = await createQr(t, key);
      expectStatus(await updateQr(t, key, created.id, { folder_id: folder.id }), 200);
      expect((await getQr(t, key, created.id)).json().folder_id).toBe(folder.id);
      expectFieldErrors(await updateQr(t, key, created.id, { folder_id: theirs.id }), 'folder_id');
      expectFieldErrors(await updateQr(t, key, created.id, { folder_id: 'nope' }), 'folder_id');
      expect((await stored(created.id)).folderId).toBe(folder.id);
      expectStatus(await updateQr(t, key, created.id, { folder_id: null }), 200);
      expect((await getQr(t, key, created.id)).json().folder_id).toBeNull();
    });

    it('400 for a type change; the same type is accepted', async () => {
      const created = await createQr(t, key, { type: 'text' });
      expectFieldErrors(await updateQr(t, key, created.id, { type: 'url', content: { url: 'https://example.com' } }), 'type');
      expect((await stored(created.id)).type).toBe('text');
      expectFieldErrors(await updateQr(t, key, created.id, { type: 'url' }), 'type');
      const res = await updateQr(t, key, created.id, { type: 'text', name: 'Same type' });
      expectStatus(res, 200);
      expect(await stored(created.id)).toMatchObject({ type: 'text', name: 'Same type' });
    });

    it('400 for making a dynamic code static; it stays dynamic with its short code', async () => {
      const created = await createQr(t, key, { is_dynamic: true });
      const errors = expectFieldErrors(await updateQr(t, key, created.id, { is_dynamic: false, name: 'Not applied' }), 'is_dynamic');
      expect(errors[0].message).toMatch(/static/);
      const after = await stored(created.id);
      expect(after).toMatchObject({ isDynamic: true, shortCode: created.short_code, name: created.name });
      expectStatus(await updateQr(t, key, created.id, { is_dynamic: true }), 200);
      expect(await stored(created.id)).toMatchObject({ isDynamic: true, shortCode: created.short_code });
    });

    it('accepts is_dynamic false on a static code as no change', async () => {
      const created = await createQr(t, key);
      expectStatus(await updateQr(t, key, created.id, { is_dynamic: false }), 200);
      expect(await stored(created.id)).toMatchObject({ isDynamic: false, shortCode: null });
    });

    it('upgrades a static code to dynamic: short_code and dynamic_url assigned, render version bumped', async () => {
      const created = await createQr(t, key);
      const version = await renderVersion(created.id);
      expectStatus(await updateQr(t, key, created.id, { is_dynamic: true }), 200);
      const got = (await getQr(t, key, created.id)).json();
      expect(got.is_dynamic).toBe(true);
      expect(got.short_code).toMatch(SHORT_CODE);
      expect(got.dynamic_url).toBe(`http://qr.test/r/${got.short_code}`);
      expect(await renderVersion(created.id)).toBe(version + 1);
    });

    it('10 concurrent upgrades of one static code create exactly one short code, which never changes', async () => {
      const created = await createQr(t, key);
      const responses = await Promise.all(Array.from({ length: 10 }, () => updateQr(t, key, created.id, { is_dynamic: true })));
      expect(responses.map((res) => res.statusCode)).toEqual(Array(10).fill(200));
      const row = await stored(created.id);
      expect(row.isDynamic).toBe(true);
      expect(row.shortCode).toMatch(SHORT_CODE);
      expect(await t.prisma.qrCode.count({ where: { shortCode: row.shortCode } })).toBe(1);
      expect((await getQr(t, key, created.id)).json().short_code).toBe(row.shortCode);

      for (let again = 0; again < 3; again++) expectStatus(await updateQr(t, key, created.id, { is_dynamic: true }), 200);
      expectStatus(await updateQr(t, key, created.id, { is_dynamic: true, content: { url: 'https://example.org/new' } }), 200);
      expect((await stored(created.id)).shortCode).toBe(row.shortCode);
    });

    it('pauses and reactivates a code; rejects an unknown status', async () => {
      const created = await createQr(t, key, { is_dynamic: true });
      expectStatus(await updateQr(t, key, created.id, { status: 'paused' }), 200);
      expect((await getQr(t, key, created.id)).json().status).toBe('paused');
      expectFieldErrors(await updateQr(t, key, created.id, { status: 'deleted' }), 'status');
      expectFieldErrors(await updateQr(t, key, created.id, { status: 'expired' }), 'status');
      expect((await getQr(t, key, created.id)).json().status).toBe('paused');
      expectStatus(await updateQr(t, key, created.id, { status: 'active' }), 200);
      expect((await getQr(t, key, created.id)).json().status).toBe('active');
    });

    it('expires_at: 400 on a static code and in the past; a future one on a dynamic code shows on get and can be removed', async () => {
      const fixed = await createQr(t, key);
      const future = new Date(Date.now() + 7 * 86_400_000);
      future.setUTCMilliseconds(250);
      expectFieldErrors(await updateQr(t, key, fixed.id, { expires_at: future.toISOString() }), 'expires_at');
      expect((await stored(fixed.id)).expiresAt).toBeNull();

      const dynamic = await createQr(t, key, { is_dynamic: true });
      expectFieldErrors(await updateQr(t, key, dynamic.id, { expires_at: new Date(Date.now() - 60_000).toISOString() }), 'expires_at');
      expectFieldErrors(await updateQr(t, key, dynamic.id, { expires_at: 'tomorrow' }), 'expires_at');
      expectStatus(await updateQr(t, key, dynamic.id, { expires_at: future.toISOString() }), 200);
      const got = (await getQr(t, key, dynamic.id)).json();
      expect(got.expires_at).toBe(future.toISOString());
      expect(got.status).toBe('active');

      expectStatus(await updateQr(t, key, dynamic.id, { expires_at: null }), 200);
      expect((await getQr(t, key, dynamic.id)).json().expires_at).toBeUndefined();

      // Upgrading and setting an expiry in one request is allowed: the code ends up dynamic.
      expectStatus(await updateQr(t, key, fixed.id, { is_dynamic: true, expires_at: future.toISOString() }), 200);
      expect(await stored(fixed.id)).toMatchObject({ isDynamic: true, expiresAt: future });
    });

    it('reads status "expired" once expires_at has passed', async () => {
      const dynamic = await createQr(t, key, { is_dynamic: true });
      await t.prisma.qrCode.update({ where: { id: dynamic.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      expect((await getQr(t, key, dynamic.id)).json().status).toBe('expired');
    });

    it('400 (not 500) for null where null means nothing; null folder_id and expires_at remove', async () => {
      const created = await createQr(t, key, { name: 'Kept', is_dynamic: true });
      const before = await stored(created.id);
      for (const field of ['name', 'status', 'content', 'style', 'is_dynamic', 'type']) {
        expectFieldErrors(await updateQr(t, key, created.id, { [field]: null }), field);
      }
      expect(await stored(created.id)).toEqual(before);
      expectStatus(await updateQr(t, key, created.id, { folder_id: null, expires_at: null }), 200);
    });

    it('an empty body changes nothing but updated_at', async () => {
      const created = await createQr(t, key, { type: 'sms' });
      const before = await stored(created.id);
      expectStatus(await updateQr(t, key, created.id, {}), 200);
      const { updatedAt: _after, ...after } = await stored(created.id);
      const { updatedAt: _before, ...unchanged } = before;
      expect(after).toEqual(unchanged);
    });

    it('400 for an unknown field; nothing is applied', async () => {
      const created = await createQr(t, key, { name: 'Before' });
      expectFieldErrors(await updateQr(t, key, created.id, { name: 'After', owner: 'me' }), 'owner');
      expect((await stored(created.id)).name).toBe('Before');
    });

    it("404 for another account's code and an unknown id, 400 for a non-UUID id; the code is unchanged", async () => {
      const theirs = await createQr(t, otherKey, { name: 'Theirs' });
      const before = await stored(theirs.id);
      expectFieldErrors(await updateQr(t, key, 'abc', { name: 'Hijacked', is_dynamic: true }), 'id');
      const bodies = [];
      for (const id of [theirs.id, NO_SUCH_ID]) {
        const { request_id: _id, ...rest } = expectErrorBody(await updateQr(t, key, id, { name: 'Hijacked', is_dynamic: true }), 404);
        bodies.push(rest);
      }
      for (const body of bodies) expect(body).toEqual(bodies[0]);
      expect(await stored(theirs.id)).toEqual(before);
    });

    describe('content_fields and content_merge', () => {
      const card = {
        first_name: 'Ada',
        last_name: 'Lovelace',
        organization: 'Engines Ltd',
        title: 'Analyst',
        email: 'ada@example.com',
        address: { city: 'London', country: 'UK' },
      };
      const merge = (id: string, payload: Record<string, unknown>, query = '?content_merge=true') =>
        t.request({ method: 'PUT', url: `/api/v1/qrcodes/${id}${query}`, headers: auth(key), payload });

      it('shows the stored content object as content_fields on create and get, beside the content string', async () => {
        const created = await createQr(t, key, { type: 'vcard', content: { ...card, organization: '  Engines Ltd  ', note: '' } });
        // Stored as validated: single-line values trimmed, a blank optional field dropped.
        expect(created.content_fields).toEqual(card);
        const got = (await getQr(t, key, created.id)).json();
        expect(got.content_fields).toEqual(card);
        expect(got.content).toBe(created.content_string);
        expect(got.content).toContain('TITLE:Analyst\r\n');
      });

      it('keeps a Wi-Fi password in content_fields (the content string holds it too)', async () => {
        const created = await createQr(t, key, { type: 'wifi' });
        expect(created.content_fields).toEqual({ ssid: 'CafeGuest', password: 'hunter22', encryption: 'WPA' });
        expect(created.content_string).toContain('P:hunter22;');
      });

      it('with content_merge=true changes only the fields sent: a new title keeps the rest of the card', async () => {
        const created = await createQr(t, key, { type: 'vcard', content: card });
        const version = await renderVersion(created.id);
        const res = await merge(created.id, { content: { title: 'Chief Mathematician' } });
        expectStatus(res, 200);
        const { qrcode } = res.json();
        expect(qrcode.content_fields).toEqual({ ...card, title: 'Chief Mathematician' });
        expect(qrcode.content).toContain('TITLE:Chief Mathematician\r\n');
        expect(qrcode.content).toContain('ORG:Engines Ltd\r\n');
        expect(qrcode.content).toContain('ADR:;;;London;;;UK\r\n');
        expect((await stored(created.id)).content).toEqual(qrcode.content_fields);
        expect(await renderVersion(created.id)).toBe(version + 1);
      });

      it('with content_merge=true removes a field sent as null and merges address field by field', async () => {
        const created = await createQr(t, key, { type: 'vcard', content: card });
        const res = await merge(created.id, { content: { title: null, email: null, address: { city: 'Paris', postcode: '75001' } } });
        expectStatus(res, 200);
        const { title: _title, email: _email, ...rest } = card;
        expect(res.json().qrcode.content_fields).toEqual({ ...rest, address: { city: 'Paris', postcode: '75001', country: 'UK' } });
        expect(res.json().qrcode.content).not.toContain('TITLE:');
      });

      it('without content_merge, or with content_merge=false, content replaces the old content whole', async () => {
        const created = await createQr(t, key, { type: 'vcard', content: card });
        const replaced = await updateQr(t, key, created.id, { content: { first_name: 'Grace' } });
        expectStatus(replaced, 200);
        expect(replaced.json().qrcode.content_fields).toEqual({ first_name: 'Grace' });
        const again = await merge(created.id, { content: { last_name: 'Hopper' } }, '?content_merge=false');
        expectStatus(again, 200);
        expect(again.json().qrcode.content_fields).toEqual({ last_name: 'Hopper' });
      });

      it('checks the merged content whole, naming the field; nothing changes on a refusal', async () => {
        const created = await createQr(t, key, { type: 'wifi' });
        const before = await stored(created.id);
        // The stored password is refused with nopass: the merge must remove it.
        expectFieldErrors(await merge(created.id, { content: { encryption: 'nopass' } }), 'content.password');
        expectFieldErrors(await merge(created.id, { content: { ssid: null } }), 'content.ssid');
        expectFieldErrors(await merge(created.id, { content: { ssid: 'x'.repeat(33) } }), 'content.ssid');
        expectFieldErrors(await merge(created.id, { content: { channel: 6 } }), 'content.channel');
        expect(await stored(created.id)).toEqual(before);

        const open = await merge(created.id, { content: { encryption: 'nopass', password: null } });
        expectStatus(open, 200);
        expect(open.json().qrcode).toMatchObject({
          content: 'WIFI:T:nopass;S:CafeGuest;;',
          content_fields: { ssid: 'CafeGuest', encryption: 'nopass' },
        });
      });

      it('a merge cannot change the type; content_merge must be true or false', async () => {
        const created = await createQr(t, key, { type: 'vcard', content: card });
        expectFieldErrors(await merge(created.id, { type: 'url', content: { url: 'https://example.com' } }), 'type');
        expect(expectFieldErrors(await merge(created.id, { content: { title: 'CTO' } }, '?content_merge=yes'), 'content_merge')).toEqual([
          { field: 'content_merge', message: 'content_merge must be "true" or "false"' },
        ]);
        expect((await stored(created.id)).content).toEqual(card);
      });

      it('with content_merge=true and no content, the other fields change as usual', async () => {
        const created = await createQr(t, key, { type: 'vcard', content: card });
        const res = await merge(created.id, { name: 'Ada' });
        expectStatus(res, 200);
        expect(res.json().qrcode).toMatchObject({ name: 'Ada', content_fields: card });
      });
    });

    it('401 without a key', async () => {
      const created = await createQr(t, key, { name: 'Keep' });
      expectErrorBody(await t.request({ method: 'PUT', url: `/api/v1/qrcodes/${created.id}`, payload: { name: 'x' } }), 401);
      expect((await stored(created.id)).name).toBe('Keep');
    });
  });

  describe('delete', () => {
    const scanEvent = (qrCodeId: string) => insertScanEvent(t, qrCodeId);

    it('deletes the code and its scan history: {message, request_id}, then 404', async () => {
      const created = await createQr(t, key, { is_dynamic: true });
      const kept = await createQr(t, key, { is_dynamic: true });
      await scanEvent(created.id);
      await scanEvent(created.id);
      await scanEvent(kept.id);
      const res = await t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${created.id}`, headers: auth(key) });
      expectStatus(res, 200);
      expect(res.json()).toEqual({ message: expect.any(String), request_id: res.headers['x-request-id'] });
      expectErrorBody(await getQr(t, key, created.id), 404);
      expect(await t.prisma.qrCode.count({ where: { id: created.id } })).toBe(0);
      expect(await t.prisma.scanEvent.count({ where: { qrCodeId: created.id } })).toBe(0);
      expect(await t.prisma.scanEvent.count({ where: { qrCodeId: kept.id } })).toBe(1);
      expectErrorBody(await t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${created.id}`, headers: auth(key) }), 404);
    });

    it("404 for another account's code, which still exists with its scans", async () => {
      const theirs = await createQr(t, otherKey);
      await scanEvent(theirs.id);
      const res = await t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${theirs.id}`, headers: auth(key) });
      const { request_id: _a, ...body } = expectErrorBody(res, 404);
      const unknown = await t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${NO_SUCH_ID}`, headers: auth(key) });
      const { request_id: _b, ...unknownBody } = expectErrorBody(unknown, 404);
      expect(body).toEqual(unknownBody);
      expect(await t.prisma.qrCode.count({ where: { id: theirs.id, accountId: otherAccountId } })).toBe(1);
      expect(await t.prisma.scanEvent.count({ where: { qrCodeId: theirs.id } })).toBe(1);
      expectStatus(await getQr(t, otherKey, theirs.id), 200);
    });

    it('401 without a key; the code stays', async () => {
      const created = await createQr(t, key);
      expectErrorBody(await t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${created.id}` }), 401);
      expectStatus(await getQr(t, key, created.id), 200);
    });
  });
});
