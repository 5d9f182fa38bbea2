import { ScanBuffer } from '../src/scans/scan-buffer.service';
import { auth, createFolder, createQr, expectErrorBody, expectFieldErrors, expectStatus, GENEROUS_RATE_LIMIT, NO_SUCH_ID } from './support/factories';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

/** GET /api/v1/analytics through the real HTTP stack, on scans made through the redirect host and stored by the scan buffer. */
describe('account-wide analytics (e2e)', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  let otherKey: string;
  let folder: Record<string, any>;
  let poster: Record<string, any>;
  let flyer: Record<string, any>;
  let note: Record<string, any>;

  const analytics = (query = '', apiKey = key) =>
    t.request({ method: 'GET', url: `/api/v1/analytics${query ? `?${query}` : ''}`, headers: auth(apiKey) });
  const ok = async (query = '', apiKey = key) => {
    const res = await analytics(query, apiKey);
    expectStatus(res, 200);
    return res.json();
  };
  const scan = async (code: Record<string, any>, times: number, userAgent = IPHONE, referer?: string) => {
    for (let i = 0; i < times; i++) {
      const headers: Record<string, string> = { 'user-agent': userAgent };
      if (referer) headers.referer = referer;
      const res = await t.request({ method: 'GET', url: `/r/${code.short_code}`, headers, remoteAddress: `203.0.113.${i % 3}` });
      expect(res.statusCode).toBeLessThan(400);
    }
  };

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key, accountId } = await t.newAccount());
    otherKey = (await t.newAccount()).key;
    folder = await createFolder(t, key, 'Print');
    poster = await createQr(t, key, { name: 'Poster', is_dynamic: true, folder_id: folder.id });
    flyer = await createQr(t, key, { name: 'Flyer', is_dynamic: true });
    note = await createQr(t, key, { name: 'Note', is_dynamic: true, type: 'text', content: { text: 'hello' } });
    const theirs = await createQr(t, otherKey, { name: 'Theirs', is_dynamic: true });
    await scan(poster, 5, IPHONE, 'https://news.example/a');
    await scan(flyer, 3, FIREFOX);
    await scan(note, 2);
    await scan(poster, 2, SLACK);
    await scan(theirs, 4);
    await t.app.get(ScanBuffer).flush();
  });
  afterAll(() => t?.close());

  it('sums every code of the account: totals, zero-filled series, top codes, breakdowns; bots apart', async () => {
    const body = await ok('interval=day');
    expect(body).toMatchObject({ interval: 'day', tz: 'UTC', filters: { folder_id: null, type: null } });
    // Three IPs with one agent each per code: a visitor counts once per code and UTC day.
    expect(body.totals).toEqual({ scans: 10, unique_visitors: 3 + 3 + 2, bot_scans: 2 });
    expect(body.series).toHaveLength(31);
    expect(body.series.reduce((sum: number, bucket: { scans: number }) => sum + bucket.scans, 0)).toBe(10);
    expect(body.series.at(-1).scans).toBe(10);
    expect(body.top_codes).toEqual([
      { id: poster.id, name: 'Poster', short_code: poster.short_code, type: 'url', scans: 5 },
      { id: flyer.id, name: 'Flyer', short_code: flyer.short_code, type: 'url', scans: 3 },
      { id: note.id, name: 'Note', short_code: note.short_code, type: 'text', scans: 2 },
    ]);
    // Ties by value.
    expect(body.breakdowns.referrer).toEqual([
      { value: 'direct', scans: 5 },
      { value: 'news.example', scans: 5 },
    ]);
    expect(body.breakdowns.browser.map((item: { value: string }) => item.value).sort()).toEqual(['Firefox', 'Mobile Safari']);
    expect(body.by_country.reduce((sum: number, item: { scans: number }) => sum + item.scans, 0)).toBe(10);
    expect(body).toHaveProperty('request_id');
  });

  it('narrows to a folder or a type', async () => {
    const inFolder = await ok(`folder_id=${folder.id}`);
    expect(inFolder.filters).toEqual({ folder_id: folder.id, type: null });
    expect(inFolder.totals).toEqual({ scans: 5, unique_visitors: 3, bot_scans: 2 });
    expect(inFolder.top_codes.map((code: { id: string }) => code.id)).toEqual([poster.id]);
    const texts = await ok('type=text');
    expect(texts.totals).toEqual({ scans: 2, unique_visitors: 2, bot_scans: 0 });
    expect(texts.top_codes.map((code: { id: string }) => code.id)).toEqual([note.id]);
  });

  it('follows a code into another folder and forgets a deleted one', async () => {
    const moved = await createQr(t, key, { name: 'Moved', is_dynamic: true });
    await scan(moved, 4);
    await t.app.get(ScanBuffer).flush();
    expect((await ok(`folder_id=${folder.id}`)).totals.scans).toBe(5);
    expectStatus(await t.request({ method: 'PUT', url: `/api/v1/qrcodes/${moved.id}`, headers: auth(key), payload: { folder_id: folder.id } }), 200);
    expect((await ok(`folder_id=${folder.id}`)).totals.scans).toBe(9);
    expect((await ok()).totals.scans).toBe(14);
    expectStatus(await t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${moved.id}`, headers: auth(key) }), 200);
    expect((await ok(`folder_id=${folder.id}`)).totals.scans).toBe(5);
    expect((await ok()).totals).toEqual({ scans: 10, unique_visitors: 8, bot_scans: 2 });
  });

  it('answers in a time zone: buckets start at local midnight', async () => {
    const body = await ok('tz=Asia/Kolkata&interval=day');
    expect(body.tz).toBe('Asia/Kolkata');
    expect(body.series.every((bucket: { start: string }) => bucket.start.endsWith('T18:30:00.000Z'))).toBe(true);
    expect(body.totals.scans).toBe(10);
    const monthly = await ok('interval=month&tz=Europe/Berlin');
    expect(monthly.series.length).toBeGreaterThanOrEqual(1);
    expect(monthly.totals.scans).toBe(10);
  });

  it('shows a folder-restricted key only its folders’ codes', async () => {
    const admin = await t.request({
      method: 'POST',
      url: '/api/v1/admin/api-keys',
      headers: { 'x-admin-token': ADMIN_TOKEN },
      payload: { account_id: accountId, name: 'print only', folder_ids: [folder.id] },
    });
    expectStatus(admin, 201);
    const restricted = await ok('', admin.json().key);
    expect(restricted.totals.scans).toBe(5);
    expect(restricted.top_codes.map((code: { id: string }) => code.id)).toEqual([poster.id]);
    // Its breakdowns too are its folders' codes' only (the account's value rows are never read for it).
    expect(restricted.breakdowns.referrer).toEqual([{ value: 'news.example', scans: 5 }]);
    expect(restricted.breakdowns).toEqual((await ok(`folder_id=${folder.id}`)).breakdowns);
  });

  it("answers another account's folder and a missing one with 404 naming folder_id", async () => {
    const theirFolder = await createFolder(t, otherKey, 'Theirs');
    for (const id of [theirFolder.id, NO_SUCH_ID]) {
      const body = expectErrorBody(await analytics(`folder_id=${id}`), 404);
      expect(body.message).toBe('Folder not found');
    }
  });

  it.each([
    ['from=2026-03-09T00:00:00Z&to=2026-03-02T00:00:00Z', 'from'],
    ['from=2024-01-01T00:00:00Z&to=2026-03-02T00:00:00Z&interval=day', 'from'],
    ['interval=year', 'interval'],
    ['tz=Mars/Olympus', 'tz'],
    ['type=barcode', 'type'],
    ['folder_id=not-a-uuid', 'folder_id'],
  ])('answers %s with 400 naming %s', async (query, field) => {
    expectFieldErrors(await analytics(query), field);
  });

  it('is in the OpenAPI document with its parameters', async () => {
    const doc = (await t.request({ method: 'GET', url: '/docs-json' })).json();
    const operation = doc.paths['/api/v1/analytics']?.get;
    expect(operation.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['folder_id', 'from', 'interval', 'to', 'type', 'tz']);
    expect(operation.description).toContain('`analytics:read`');
  });
});
