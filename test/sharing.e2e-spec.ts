import { load } from 'cheerio';
import type { LightMyRequestResponse } from 'fastify';
import { decodePng } from './support/png-reader';
import { decodeRaster, decodeSvg } from './support/decode-svg';
import {
  auth,
  createFolder,
  createQr,
  eventually,
  expectErrorBody,
  expectFieldErrors,
  expectStatus,
  GENEROUS_RATE_LIMIT,
  TestClock,
  UUID,
} from './support/factories';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app';
import { USER_AGENTS } from './support/user-agents';

const HOUR_MS = 3_600_000;

describe('sharing: stats pages and image links (e2e)', () => {
  const clock = new TestClock();
  let t: TestApp;
  let key: string;
  let otherKey: string;
  let code: Record<string, any>;

  const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, apiKey = key) =>
    t.request({ method, url, headers: auth(apiKey), ...(payload ? { payload } : {}) });
  const pathOf = (url: string) => new URL(url).pathname;

  /** Scans through the redirect host, as phones send them, then waits until analytics count them all. */
  async function scan(shortCode: string, agents: Array<{ ua: string; country: string }>): Promise<void> {
    for (const agent of agents) {
      const res = await t.request({ method: 'GET', url: `/r/${shortCode}`, headers: { 'user-agent': agent.ua, 'cf-ipcountry': agent.country } });
      expectStatus(res, 302);
    }
  }

  beforeAll(async () => {
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, TRUST_PROXY: '1', GEO_COUNTRY_HEADER: 'CF-IPCountry' }, { clock });
    ({ key } = await t.newAccount());
    ({ key: otherKey } = await t.newAccount());
    code = await createQr(t, key, { name: 'Spring <menu>', is_dynamic: true, content: { url: 'https://example.com/spring' } });
    await scan(code.short_code, [
      ...Array.from({ length: 3 }, () => ({ ua: USER_AGENTS.iphone.ua, country: 'DE' })),
      ...Array.from({ length: 2 }, () => ({ ua: USER_AGENTS.pixel.ua, country: 'FR' })),
    ]);
    await eventually(async () => (await api('GET', `/api/v1/qrcodes/${code.id}/scans`)).json<{ totals: { scans: number } }>().totals.scans, 5);
  });
  afterAll(() => t?.close());

  describe('share links', () => {
    it('creates a link of a code: a page on the redirect host, every section by default', async () => {
      const res = await api('POST', `/api/v1/qrcodes/${code.id}/share-links`, {});
      expectStatus(res, 201);
      expect(res.json()).toEqual({
        token_id: expect.stringMatching(UUID),
        url: expect.stringMatching(/^http:\/\/qr\.test\/s\/[A-Za-z0-9_-]{44}$/),
        qr_code_id: code.id,
        folder_id: null,
        tag: null,
        fields: ['totals', 'series', 'countries', 'devices', 'os', 'browsers', 'referrers'],
        has_password: false,
        expires_at: null,
        revoked_at: null,
        created_at: expect.any(String),
        request_id: res.headers['x-request-id'],
      });
    });

    it.each([
      ['expires_at in the past', { expires_at: '2020-01-01T00:00:00Z' }, 'expires_at'],
      ['an unknown section', { fields: ['totals', 'visitors'] }, 'fields'],
      ['a repeated section', { fields: ['totals', 'totals'] }, 'fields'],
      ['a 3-character password', { password: 'abc' }, 'password'],
    ])('refuses %s, naming the field', async (_case, body, field) => {
      expectFieldErrors(await api('POST', `/api/v1/qrcodes/${code.id}/share-links`, body), field);
    });

    it("answers 404 for another account's code, and lists only the code's own links", async () => {
      expectErrorBody(await api('POST', `/api/v1/qrcodes/${code.id}/share-links`, {}, otherKey), 404);
      const list = await api('GET', `/api/v1/qrcodes/${code.id}/share-links`);
      expectStatus(list, 200);
      expect(list.json<{ data: Array<{ qr_code_id: string }> }>().data.every((link) => link.qr_code_id === code.id)).toBe(true);
      expectErrorBody(await api('GET', `/api/v1/qrcodes/${code.id}/share-links`, undefined, otherKey), 404);
    });
  });

  describe('the stats page', () => {
    let url: string;
    let tokenId: string;

    beforeAll(async () => {
      const created = (await api('POST', `/api/v1/qrcodes/${code.id}/share-links`, { fields: ['totals', 'series', 'countries', 'devices'] })).json();
      ({ url, token_id: tokenId } = created);
    });

    it('shows the code without a key: its name escaped, totals, charts with text alternatives and tables', async () => {
      const res = await t.request({ method: 'GET', url: pathOf(url) });
      expectStatus(res, 200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toMatch(/script-src 'sha256-/);
      const $ = load(res.body);
      expect($('h1').text()).toBe('Spring <menu>');
      expect($('.tile .number').first().text()).toBe('5');
      expect(
        $('svg[role="img"] title')
          .map((_, el) => $(el).text())
          .get(),
      ).toEqual(['Scans per day', 'Top countries', 'Devices']);
      expect(
        $('section[aria-labelledby="h-countries"] tbody th')
          .map((_, el) => $(el).text())
          .get(),
      ).toEqual(['DE', 'FR']);
      // Only the shared sections: no browsers, no referrers.
      expect($('section[aria-labelledby="h-browsers"]')).toHaveLength(0);
      // The code's own image, which decodes to its short link.
      expect(decodeSvg($('.qr').html() ?? '', { width: 300 })).toBe(code.dynamic_url);
    });

    it('answers the same numbers as the analytics API for the same window and zone, as JSON', async () => {
      const json = await t.request({ method: 'GET', url: `${pathOf(url)}.json?days=7&interval=hour&tz=Asia/Kolkata` });
      expectStatus(json, 200);
      const body = json.json<Record<string, any>>();
      const analytics = (
        await api('GET', `/api/v1/qrcodes/${code.id}/scans?from=${body.from}&to=${encodeURIComponent(body.to)}&interval=hour&tz=Asia/Kolkata`)
      ).json<Record<string, any>>();
      expect(body.totals).toEqual(analytics.totals);
      expect(body.series).toEqual(analytics.series);
      expect(body.countries).toEqual(analytics.by_country);
      expect(body.devices).toEqual(analytics.breakdowns.device);
      expect(body).not.toHaveProperty('browsers');
      expect(JSON.stringify(body)).not.toMatch(/visitor_hash|[0-9a-f]{32}/);
    });

    it.each([
      ['an unknown range', '?days=31', 'days'],
      ['hours over a year', '?days=365&interval=hour', 'interval'],
      ['an unknown zone', '?tz=Mars/Olympus', 'tz'],
      ['a parameter of its own', '?from=2026-01-01T00:00:00Z', 'from'],
    ])('refuses %s with 400 naming it', async (_case, query, field) => {
      expectFieldErrors(await t.request({ method: 'GET', url: `${pathOf(url)}.json${query}` }), field);
    });

    it('answers 404 to an altered, a truncated or a made-up token', async () => {
      const token = pathOf(url).slice(3);
      const altered = token.slice(0, 30) + (token[30] === 'A' ? 'B' : 'A') + token.slice(31);
      for (const bad of [altered, token.slice(1), 'x'.repeat(44), `${token}x`]) {
        const res = await t.request({ method: 'GET', url: `/s/${bad}` });
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain('Spring');
      }
    });

    it('stops at once on every instance when revoked', async () => {
      const sibling = await t.startSibling();
      try {
        expectStatus(await sibling.request({ method: 'GET', url: pathOf(url) }), 200);
        expectStatus(await api('DELETE', `/api/v1/share-links/${tokenId}`), 200);
        expect((await sibling.request({ method: 'GET', url: pathOf(url) })).statusCode).toBe(404);
        expect((await t.request({ method: 'GET', url: `${pathOf(url)}.json` })).statusCode).toBe(404);
        // Another account cannot revoke (or learn of) a link.
        expectErrorBody(await api('DELETE', `/api/v1/share-links/${tokenId}`, undefined, otherKey), 404);
      } finally {
        await sibling.close();
      }
    });

    it('expires at its expires_at', async () => {
      const expiring = (
        await api('POST', `/api/v1/qrcodes/${code.id}/share-links`, { expires_at: new Date(clock.now().getTime() + HOUR_MS).toISOString() })
      ).json();
      expectStatus(await t.request({ method: 'GET', url: pathOf(expiring.url) }), 200);
      clock.advance(2 * HOUR_MS);
      try {
        expect((await t.request({ method: 'GET', url: pathOf(expiring.url) })).statusCode).toBe(404);
      } finally {
        clock.advance(-2 * HOUR_MS);
      }
    });

    it('asks for the password of a protected page: the form, 403 when wrong, a cookie for the page and its JSON when right', async () => {
      const link = (await api('POST', `/api/v1/qrcodes/${code.id}/share-links`, { password: 'spring-report' })).json();
      expect(link.has_password).toBe(true);
      const form = await t.request({ method: 'GET', url: pathOf(link.url) });
      expectStatus(form, 200);
      expect(load(form.body)('input[type="password"]')).toHaveLength(1);
      expect(form.body).not.toContain('Spring &lt;menu&gt;');
      expectErrorBody(await t.request({ method: 'GET', url: `${pathOf(link.url)}.json` }), 401);
      const post = (password: string) =>
        t.request({
          method: 'POST',
          url: pathOf(link.url),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `password=${password}`,
        });
      expect((await post('wrong-one')).statusCode).toBe(403);
      const right = await post('spring-report');
      expect(right.statusCode).toBe(303);
      expect(right.headers.location).toBe(pathOf(link.url));
      const cookie = String(right.headers['set-cookie']).split(';')[0];
      const page = await t.request({ method: 'GET', url: pathOf(link.url), headers: { cookie } });
      expect(load(page.body)('h1').text()).toBe('Spring <menu>');
      expectStatus(await t.request({ method: 'GET', url: `${pathOf(link.url)}.json`, headers: { cookie } }), 200);
    });

    it("shares a folder: every code in it, counted as the account's analytics count them", async () => {
      const folder = await createFolder(t, key, 'Stores');
      const inFolder = await createQr(t, key, { name: 'Store 1', is_dynamic: true, folder_id: folder.id });
      await scan(inFolder.short_code, [{ ua: USER_AGENTS.samsung.ua, country: 'ES' }]);
      // Stored first: a page's answer is kept for a minute.
      await eventually(async () => (await api('GET', `/api/v1/qrcodes/${inFolder.id}/scans`)).json<{ totals: { scans: number } }>().totals.scans, 1);
      const link = (await api('POST', `/api/v1/folders/${folder.id}/share-links`, {})).json();
      expect(link).toMatchObject({ folder_id: folder.id, qr_code_id: null });
      const body = (await t.request({ method: 'GET', url: `${pathOf(link.url)}.json` })).json<{ totals: { scans: number } }>();
      expect(body.totals.scans).toBe(1);
      const page = load((await t.request({ method: 'GET', url: pathOf(link.url) })).body);
      expect(page('h1').text()).toBe('Stores');
      expect(page('.kind').text()).toBe('Folder');
    });
  });

  describe('answers kept for a minute', () => {
    it('shows a new scan once the minute is over, but a revocation at once', async () => {
      // At the start of a minute of the app's clock: the two reads below fall in the same one.
      const toNextMinute = 60_000 - (clock.now().getTime() % 60_000) + 1000;
      clock.advance(toNextMinute);
      try {
        const link = (await api('POST', `/api/v1/qrcodes/${code.id}/share-links`, { fields: ['totals'] })).json();
        const shown = async () =>
          (await t.request({ method: 'GET', url: `${pathOf(link.url)}.json` })).json<{ totals: { scans: number } }>().totals.scans;
        const before = await shown();
        await scan(code.short_code, [{ ua: USER_AGENTS.iphone.ua, country: 'DE' }]);
        const stored = async () => (await api('GET', `/api/v1/qrcodes/${code.id}/scans`)).json<{ totals: { scans: number } }>().totals.scans;
        expect(await eventually(stored, before + 1)).toBe(before + 1);
        expect(await shown()).toBe(before);
        clock.advance(60_000);
        expect(await shown()).toBe(before + 1);
        expectStatus(await api('DELETE', `/api/v1/share-links/${link.token_id}`), 200);
        expect((await t.request({ method: 'GET', url: `${pathOf(link.url)}.json` })).statusCode).toBe(404);
      } finally {
        clock.advance(-60_000 - toNextMinute);
      }
    });
  });

  describe('share links of a tag', () => {
    let tagged: Array<Record<string, any>>;
    let accountKey: string;
    let accountId: string;
    let folderOfTagged: Record<string, any>;
    let emptyFolder: Record<string, any>;
    const call = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, payload?: object, apiKey = accountKey) =>
      t.request({ method, url, headers: auth(apiKey), ...(payload ? { payload } : {}) });
    const keyFor = async (folderIds: string[]) => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/admin/api-keys',
        headers: { 'x-admin-token': ADMIN_TOKEN },
        payload: { account_id: accountId, name: 'one folder', folder_ids: folderIds },
      });
      expectStatus(res, 201);
      return res.json<{ key: string }>().key;
    };

    beforeAll(async () => {
      ({ key: accountKey, accountId } = await t.newAccount());
      folderOfTagged = await createFolder(t, accountKey, 'Posters');
      emptyFolder = await createFolder(t, accountKey, 'Flyers');
      tagged = [
        await createQr(t, accountKey, { name: 'Poster', is_dynamic: true, tags: ['spring'], folder_id: folderOfTagged.id }),
        await createQr(t, accountKey, { name: 'Menu', is_dynamic: true, tags: ['autumn', 'Spring'] }),
      ];
      const untagged = await createQr(t, accountKey, { name: 'Door', is_dynamic: true, tags: ['autumn'] });
      await scan(tagged[0].short_code, [
        { ua: USER_AGENTS.iphone.ua, country: 'DE' },
        { ua: USER_AGENTS.iphone.ua, country: 'DE' },
      ]);
      await scan(tagged[1].short_code, [{ ua: USER_AGENTS.pixel.ua, country: 'FR' }]);
      await scan(untagged.short_code, [{ ua: USER_AGENTS.pixel.ua, country: 'IT' }]);
      const analyticsScans = async () => (await call('GET', '/api/v1/analytics')).json<{ totals: { scans: number } }>().totals.scans;
      expect(await eventually(analyticsScans, 4)).toBe(4);
    });

    it('shares every code carrying the tag (in any case), counted as their own analytics count them, and nothing else', async () => {
      const res = await call('POST', '/api/v1/tags/SPRING/share-links', { fields: ['totals', 'countries'] });
      expectStatus(res, 201);
      const link = res.json<Record<string, any>>();
      expect(link).toMatchObject({ tag: 'spring', qr_code_id: null, folder_id: null, fields: ['totals', 'countries'] });
      const body = (await t.request({ method: 'GET', url: `${pathOf(link.url)}.json?tz=Europe/Berlin` })).json<Record<string, any>>();
      const perCode = await Promise.all(
        tagged.map(async (one) =>
          (await call('GET', `/api/v1/qrcodes/${one.id}/scans?from=${body.from}&to=${encodeURIComponent(body.to)}&tz=Europe/Berlin`)).json<
            Record<string, any>
          >(),
        ),
      );
      expect(body.totals).toEqual({
        scans: perCode[0].totals.scans + perCode[1].totals.scans,
        unique_visitors: perCode[0].totals.unique_visitors + perCode[1].totals.unique_visitors,
        bot_scans: perCode[0].totals.bot_scans + perCode[1].totals.bot_scans,
      });
      expect(body.totals.scans).toBe(3);
      expect(body.countries).toEqual([
        { value: 'DE', scans: 2 },
        { value: 'FR', scans: 1 },
      ]);
      const page = load((await t.request({ method: 'GET', url: pathOf(link.url) })).body);
      expect(page('h1').text()).toBe('spring');
      expect(page('.kind').text()).toBe('Tag');
      const list = (await call('GET', '/api/v1/tags/spring/share-links')).json<{ data: Array<{ token_id: string }> }>().data;
      expect(list.map((one) => one.token_id)).toEqual([link.token_id]);
    });

    it("answers 404 for an unknown tag and another account's, and refuses a bad body naming the field", async () => {
      expectErrorBody(await call('POST', '/api/v1/tags/winter/share-links', {}), 404);
      expectErrorBody(await call('POST', '/api/v1/tags/spring/share-links', {}, key), 404);
      expectErrorBody(await call('GET', '/api/v1/tags/spring/share-links', undefined, key), 404);
      expectFieldErrors(await call('POST', '/api/v1/tags/spring/share-links', { fields: ['visitors'] }), 'fields');
    });

    it('lets a folder-restricted key list and revoke only the links of tags on its codes, and make none', async () => {
      const link = (await call('POST', '/api/v1/tags/spring/share-links', {})).json<Record<string, any>>();
      const seeing = await keyFor([folderOfTagged.id]);
      const blind = await keyFor([emptyFolder.id]);
      expectErrorBody(await call('POST', '/api/v1/tags/spring/share-links', {}, seeing), 403);
      expectErrorBody(await call('GET', '/api/v1/tags/spring/share-links', undefined, blind), 404);
      expectErrorBody(await call('DELETE', `/api/v1/share-links/${link.token_id}`, undefined, blind), 404);
      expectStatus(await call('GET', '/api/v1/tags/spring/share-links', undefined, seeing), 200);
      expectStatus(await call('DELETE', `/api/v1/share-links/${link.token_id}`, undefined, seeing), 200);
      expect((await t.request({ method: 'GET', url: pathOf(link.url) })).statusCode).toBe(404);
    });

    it('follows a rename, and answers 404 once the tag is deleted', async () => {
      const link = (await call('POST', '/api/v1/tags/autumn/share-links', {})).json<Record<string, any>>();
      expectStatus(await call('PATCH', '/api/v1/tags/autumn', { name: 'Fall' }), 200);
      expect(load((await t.request({ method: 'GET', url: pathOf(link.url) })).body)('h1').text()).toBe('Fall');
      expect((await call('GET', '/api/v1/tags/fall/share-links')).json<{ data: Array<{ tag: string }> }>().data[0].tag).toBe('Fall');
      expectStatus(await call('DELETE', '/api/v1/tags/fall'), 200);
      expect((await t.request({ method: 'GET', url: `${pathOf(link.url)}.json` })).statusCode).toBe(404);
    });
  });

  describe('charts for key holders', () => {
    const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);

    it("draw the numbers of /analytics for the same window and zone (a breakdown's labels and counts, the series' total)", async () => {
      const query = 'interval=day&tz=America/St_Johns';
      const analytics = (await api('GET', `/api/v1/analytics?${query}`)).json<Record<string, any>>();
      const countries = await api('GET', `/api/v1/analytics/chart.svg?${query}&chart=countries`);
      expectStatus(countries, 200);
      expect(countries.headers['content-type']).toMatch(/^image\/svg\+xml/);
      const drawn = texts(countries.body);
      const expected = (analytics.by_country as Array<{ value: string; scans: number }>).flatMap((row) => [row.value, String(row.scans)]);
      expect(drawn).toEqual(expected);
      const series = await api('GET', `/api/v1/qrcodes/${code.id}/scans/chart.svg?${query}`);
      const scans = (await api('GET', `/api/v1/qrcodes/${code.id}/scans?${query}`)).json<{ totals: { scans: number } }>();
      expect(series.body).toContain(`${scans.totals.scans} scans over`);
    });

    it("refuse an unknown chart, naming it, and another account's code", async () => {
      expectFieldErrors(await api('GET', `/api/v1/analytics/chart.svg?chart=pie`), 'chart');
      expectErrorBody(await api('GET', `/api/v1/qrcodes/${code.id}/scans/chart.svg`, undefined, otherKey), 404);
    });
  });

  describe('image links', () => {
    const image = (res: LightMyRequestResponse) => res.rawPayload;

    it('serves the SVG without a key, with cache headers, an ETag and 304 on a match; it decodes to the short link', async () => {
      const link = (await api('POST', `/api/v1/qrcodes/${code.id}/image-links`, {})).json();
      expect(link).toMatchObject({ id: expect.stringMatching(UUID), size: 300, format: 'svg', style: null });
      const res = await t.request({ method: 'GET', url: pathOf(link.url) });
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe('image/svg+xml');
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
      expect(res.headers.etag).toMatch(/^"/);
      expect(decodeSvg(image(res).toString('utf8'), { width: 300 })).toBe(code.dynamic_url);
      const again = await t.request({ method: 'GET', url: pathOf(link.url), headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload).toHaveLength(0);
    });

    it('serves a PNG with the style overrides of the link, and refuses a style that would not scan', async () => {
      const link = (
        await api('POST', `/api/v1/qrcodes/${code.id}/image-links`, { format: 'png', size: 400, style: { dotsOptions: { color: '#0b3d91' } } })
      ).json();
      const res = await t.request({ method: 'GET', url: pathOf(link.url) });
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe('image/png');
      const raster = decodePng(image(res));
      expect(raster.width).toBe(400);
      expect(decodeRaster(raster)).toBe(code.dynamic_url);
      const refused = await api('POST', `/api/v1/qrcodes/${code.id}/image-links`, { style: { dotsOptions: { color: '#ffffff' } } });
      expect(expectFieldErrors(refused).some((error) => error.field.startsWith('style'))).toBe(true);
    });

    it('follows the code: a new destination style changes the ETag', async () => {
      const link = (await api('POST', `/api/v1/qrcodes/${code.id}/image-links`, { expires_at: new Date(Date.now() + HOUR_MS).toISOString() })).json();
      const before = await t.request({ method: 'GET', url: pathOf(link.url) });
      expect(Number(/max-age=(\d+)/.exec(String(before.headers['cache-control']))?.[1])).toBeLessThanOrEqual(3600);
      expectStatus(
        await t.request({
          method: 'PUT',
          url: `/api/v1/qrcodes/${code.id}`,
          headers: auth(key),
          payload: { style: { dotsOptions: { type: 'rounded' } } },
        }),
        200,
      );
      const after = await t.request({ method: 'GET', url: pathOf(link.url) });
      expect(after.headers.etag).not.toBe(before.headers.etag);
    });

    it('answers 400 to any query parameter: nothing outside the signature changes the image', async () => {
      const link = (await api('POST', `/api/v1/qrcodes/${code.id}/image-links`, {})).json();
      expectFieldErrors(await t.request({ method: 'GET', url: `${pathOf(link.url)}?size=2000` }), 'size');
    });

    it('answers 410 once revoked, and for every link after the secret is rotated; 404 to an altered token', async () => {
      const revoked = (await api('POST', `/api/v1/qrcodes/${code.id}/image-links`, {})).json();
      const kept = (await api('POST', `/api/v1/qrcodes/${code.id}/image-links`, { format: 'png' })).json();
      const token = pathOf(kept.url).slice(3);
      expect((await t.request({ method: 'GET', url: `/i/${token.slice(0, 30)}${token[30] === 'A' ? 'B' : 'A'}${token.slice(31)}` })).statusCode).toBe(
        404,
      );
      expectStatus(await api('DELETE', `/api/v1/image-links/${revoked.id}`), 200);
      expect((await t.request({ method: 'GET', url: pathOf(revoked.url) })).statusCode).toBe(410);
      expectStatus(await t.request({ method: 'GET', url: pathOf(kept.url) }), 200);
      const rotated = await api('POST', '/api/v1/image-links/rotate-secret');
      expectStatus(rotated, 200);
      expect(rotated.json<{ revoked: number }>().revoked).toBeGreaterThanOrEqual(1);
      expect((await t.request({ method: 'GET', url: pathOf(kept.url) })).statusCode).toBe(410);
      const listed = (await api('GET', `/api/v1/qrcodes/${code.id}/image-links`)).json<{ data: Array<{ revoked_at: string | null }> }>().data;
      expect(listed.every((link) => link.revoked_at !== null)).toBe(true);
      // A link made after the rotation works.
      const fresh = (await api('POST', `/api/v1/qrcodes/${code.id}/image-links`, {})).json();
      expectStatus(await t.request({ method: 'GET', url: pathOf(fresh.url) }), 200);
    });
  });

  describe('app links on branded domains', () => {
    const PRINT = '14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5';
    const onHost = (host: string, url: string) => t.request({ method: 'GET', url, headers: { host } });

    async function verifiedDomain(hostname: string, apiKey = key): Promise<string> {
      const created = await api('POST', '/api/v1/domains', { hostname }, apiKey);
      expectStatus(created, 201);
      const id = created.json<{ id: string }>().id;
      await t.prisma.domain.update({ where: { id }, data: { status: 'verified', verifiedAt: new Date() } });
      return id;
    }

    it('serves apple-app-site-association and assetlinks.json as JSON, never redirected; 404 without app links and on the default host', async () => {
      const id = await verifiedDomain('apps.brand.example');
      expect((await onHost('apps.brand.example', '/.well-known/apple-app-site-association')).statusCode).toBe(404);
      const set = await t.request({
        method: 'PUT',
        url: `/api/v1/domains/${id}`,
        headers: auth(key),
        payload: {
          app_links: {
            apple: { app_ids: ['ABCDE12345.com.brand.app'], paths: ['/r/*', 'NOT /r/promo*'] },
            android: { package_name: 'com.brand.app', sha256_cert_fingerprints: [PRINT.toLowerCase()] },
          },
        },
      });
      expectStatus(set, 200);
      expect(set.json().app_links).toEqual({
        apple: { app_ids: ['ABCDE12345.com.brand.app'], paths: ['/r/*', 'NOT /r/promo*'] },
        android: { package_name: 'com.brand.app', sha256_cert_fingerprints: [PRINT.toLowerCase()] },
      });
      const aasa = await onHost('apps.brand.example', '/.well-known/apple-app-site-association');
      expectStatus(aasa, 200);
      expect(aasa.headers['content-type']).toBe('application/json');
      expect(aasa.json()).toEqual({
        applinks: { details: [{ appIDs: ['ABCDE12345.com.brand.app'], components: [{ '/': '/r/*' }, { '/': '/r/promo*', exclude: true }] }] },
      });
      const assets = await onHost('apps.brand.example', '/.well-known/assetlinks.json');
      expect(assets.json()).toEqual([
        {
          relation: ['delegate_permission/common.handle_all_urls'],
          target: { namespace: 'android_app', package_name: 'com.brand.app', sha256_cert_fingerprints: [PRINT] },
        },
      ]);
      // The service's own hosts have no app links.
      expect((await onHost('qr.test', '/.well-known/apple-app-site-association')).statusCode).toBe(404);
      expect((await onHost('api.test', '/.well-known/assetlinks.json')).statusCode).toBe(404);
      // Removing them: 404 again, at once.
      expectStatus(await t.request({ method: 'PUT', url: `/api/v1/domains/${id}`, headers: auth(key), payload: { app_links: null } }), 200);
      expect((await onHost('apps.brand.example', '/.well-known/assetlinks.json')).statusCode).toBe(404);
    });

    it.each([
      ['a bundle id without its team', { apple: { app_ids: ['com.brand.app'] } }, 'app_links.apple.app_ids'],
      ['no app ids', { apple: { app_ids: [] } }, 'app_links.apple.app_ids'],
      ['a path not rooted at /', { apple: { app_ids: ['ABCDE12345.com.brand.app'], paths: ['r/*'] } }, 'app_links.apple.paths'],
      ['a one-segment package', { android: { package_name: 'brand', sha256_cert_fingerprints: [PRINT] } }, 'app_links.android.package_name'],
      [
        'a short fingerprint',
        { android: { package_name: 'com.brand.app', sha256_cert_fingerprints: ['AB:CD'] } },
        'app_links.android.sha256_cert_fingerprints',
      ],
      ['neither platform', {}, 'app_links'],
    ])('refuses %s, naming the field', async (_case, appLinks, field) => {
      const id = (await api('GET', '/api/v1/domains')).json<{ data: Array<{ id: string }> }>().data[0].id;
      const res = await t.request({ method: 'PUT', url: `/api/v1/domains/${id}`, headers: auth(key), payload: { app_links: appLinks } });
      expect(expectFieldErrors(res).map((error) => error.field.replace(/\[\d+\]$/, ''))).toContain(field);
    });

    it("answers a branded domain's stats and image links only for its own account", async () => {
      await verifiedDomain('other.brand.example', otherKey);
      const link = (await api('POST', `/api/v1/qrcodes/${code.id}/share-links`, {})).json();
      expect((await onHost('other.brand.example', pathOf(link.url))).statusCode).toBe(404);
      expectStatus(await onHost('apps.brand.example', pathOf(link.url)), 200);
      const image = (await api('POST', `/api/v1/qrcodes/${code.id}/image-links`, {})).json();
      expect((await onHost('other.brand.example', pathOf(image.url))).statusCode).toBe(404);
    });
  });
});
