import { randomUUID } from 'node:crypto';
import { ScanBuffer } from '../src/scans/scan-buffer.service';
import {
  auth,
  createQr,
  expectErrorBody,
  expectFieldErrors,
  expectStatus,
  GENEROUS_RATE_LIMIT,
  ISO_UTC_MS,
  NO_SUCH_ID,
  rebuildScanRollups,
} from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface PastScan {
  at: string;
  visitor: string;
  bot?: boolean;
  referrer?: string | null;
  device?: string;
  os?: string;
  browser?: string;
}

describe('scan analytics (e2e)', () => {
  let t: TestApp;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key } = await t.newAccount());
    ({ key: otherKey } = await t.newAccount());
  });
  afterAll(() => t.close());

  const analytics = (id: string, query = '', apiKey: string | null = key) =>
    t.request({ method: 'GET', url: `/api/v1/qrcodes/${id}/scans${query ? `?${query}` : ''}`, headers: apiKey ? auth(apiKey) : {} });

  const ok = async (id: string, query = '') => {
    const res = await analytics(id, query);
    expectStatus(res, 200);
    return res.json();
  };

  /** Stored scan events at past instants, as the scan buffer writes them. */
  const insertScans = async (qrCodeId: string, scans: PastScan[]) => {
    await t.prisma.scanEvent.createMany({
      data: scans.map((scan) => ({
        eventId: randomUUID(),
        qrCodeId,
        scannedAt: new Date(scan.at),
        referrer: scan.referrer ?? null,
        device: scan.bot ? 'bot' : (scan.device ?? 'mobile'),
        os: scan.os ?? 'iOS',
        browser: scan.browser ?? 'Mobile Safari',
        visitorHash: scan.visitor.padEnd(32, '-'),
        isBot: scan.bot ?? false,
      })),
    });
    await rebuildScanRollups(t, [qrCodeId]);
  };

  const starts = (body: { series: Array<{ start: string }> }) => body.series.map((bucket) => bucket.start);
  const counts = (body: { series: Array<{ scans: number }> }) => body.series.map((bucket) => bucket.scans);

  it('reports live scans made through the redirect host: totals, unique visitors, bots, breakdowns, 30 daily buckets', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    const bystander = await createQr(t, key, { is_dynamic: true });
    const visits: Array<[string, string, string | undefined]> = [
      [IPHONE, '203.0.113.1', 'https://news.example/a'],
      [IPHONE, '203.0.113.1', 'https://NEWS.example:8443/b?x=1'],
      [ANDROID, '203.0.113.2', 'https://www.google.com/'],
      [FIREFOX, '203.0.113.3', undefined],
      [FIREFOX, '203.0.113.4', undefined],
      [SLACK, '203.0.113.5', 'https://slack.com/'],
    ];
    for (const [userAgent, remoteAddress, referer] of visits) {
      const res = await t.request({
        method: 'GET',
        url: `/r/${code.short_code}`,
        headers: { 'user-agent': userAgent, ...(referer ? { referer } : {}) },
        remoteAddress,
      });
      expectStatus(res, 302);
    }
    expectStatus(
      await t.request({ method: 'GET', url: `/r/${bystander.short_code}`, headers: { 'user-agent': IPHONE }, remoteAddress: '203.0.113.9' }),
      302,
    );
    await t.app.get(ScanBuffer).flush();

    const before = Date.now();
    const body = await ok(code.id);
    expect(body).toMatchObject({ qr_code_id: code.id, interval: 'day', request_id: expect.any(String) });
    expect(body.totals).toEqual({ scans: 5, unique_visitors: 4, bot_scans: 1 });
    expect(body.breakdowns).toEqual({
      device: [
        { value: 'mobile', scans: 3 },
        { value: 'desktop', scans: 2 },
      ],
      os: [
        { value: 'Windows', scans: 2 },
        { value: 'iOS', scans: 2 },
        { value: 'Android', scans: 1 },
      ],
      browser: [
        { value: 'Firefox', scans: 2 },
        { value: 'Mobile Safari', scans: 2 },
        { value: 'Chrome', scans: 1 },
      ],
      referrer: [
        { value: 'direct', scans: 2 },
        { value: 'news.example', scans: 2 },
        { value: 'www.google.com', scans: 1 },
      ],
    });

    // Defaults: to = now, from = to - 30 days; 31 daily buckets (the first one starts before `from`).
    expect(body.to).toMatch(ISO_UTC_MS);
    expect(Math.abs(Date.parse(body.to) - before)).toBeLessThan(10_000);
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(30 * DAY);
    expect(body.series).toHaveLength(31);
    expect(starts(body)[0]).toBe(`${body.from.slice(0, 10)}T00:00:00.000Z`);
    expect(starts(body)[30]).toBe(`${new Date(Date.parse(body.to) - 1).toISOString().slice(0, 10)}T00:00:00.000Z`);
    starts(body).forEach((start, index) => expect(Date.parse(start) - Date.parse(starts(body)[0])).toBe(index * DAY));
    expect(counts(body).reduce((a, b) => a + b, 0)).toBe(5);

    const hourly = await ok(code.id, 'interval=hour');
    expect(hourly.series).toHaveLength(30 * 24 + 1);
    expect(hourly.series.every((bucket: { start: string }) => bucket.start.endsWith(':00:00.000Z'))).toBe(true);
    expect(hourly.totals).toEqual(body.totals);
  });

  describe('stored history', () => {
    let code: Record<string, any>;

    beforeAll(async () => {
      code = await createQr(t, key, { is_dynamic: true });
      // 2026-03-02 is a Monday.
      await insertScans(code.id, [
        { at: '2026-03-01T23:59:59.999Z', visitor: 'v1' },
        { at: '2026-03-02T00:00:00.000Z', visitor: 'v1', referrer: 'https://news.example/a' },
        {
          at: '2026-03-02T10:30:00.000Z',
          visitor: 'v1',
          referrer: 'http://user:pw@News.Example:8080/b',
          device: 'desktop',
          os: 'macOS',
          browser: 'Safari',
        },
        { at: '2026-03-02T10:45:00.000Z', visitor: 'v2', referrer: null, device: 'tablet', os: 'iOS', browser: 'Mobile Safari' },
        { at: '2026-03-04T05:00:00.000Z', visitor: 'v3', bot: true, referrer: 'https://slack.com/' },
        { at: '2026-03-05T12:00:00.000Z', visitor: 'v1', referrer: '' },
        { at: '2026-03-08T23:59:59.999Z', visitor: 'v4', referrer: 'not a url', device: 'desktop', os: 'Linux', browser: 'Firefox' },
        { at: '2026-03-09T00:00:00.000Z', visitor: 'v2' },
        { at: '2026-03-16T08:00:00.000Z', visitor: 'v2' },
      ]);
      // Another code of the same account, scanned inside the same windows: never counted for `code`.
      const neighbour = await createQr(t, key, { is_dynamic: true });
      await insertScans(neighbour.id, [
        { at: '2026-03-03T12:00:00.000Z', visitor: 'v9' },
        { at: '2026-03-02T10:40:00.000Z', visitor: 'v1' },
      ]);
    });

    it('buckets by UTC day with zero-filled gaps; from is inclusive, to exclusive', async () => {
      const body = await ok(code.id, 'from=2026-03-02T00:00:00Z&to=2026-03-09T00:00:00Z');
      expect(body).toMatchObject({ from: '2026-03-02T00:00:00.000Z', to: '2026-03-09T00:00:00.000Z', interval: 'day' });
      // Visitor hashes are per UTC day (a real visitor's hash differs each day): v1 of 03-02 and of 03-05 are two.
      expect(body.totals).toEqual({ scans: 5, unique_visitors: 4, bot_scans: 1 });
      expect(body.series).toEqual([
        { start: '2026-03-02T00:00:00.000Z', scans: 3, unique_visitors: 2 },
        { start: '2026-03-03T00:00:00.000Z', scans: 0, unique_visitors: 0 },
        { start: '2026-03-04T00:00:00.000Z', scans: 0, unique_visitors: 0 },
        { start: '2026-03-05T00:00:00.000Z', scans: 1, unique_visitors: 1 },
        { start: '2026-03-06T00:00:00.000Z', scans: 0, unique_visitors: 0 },
        { start: '2026-03-07T00:00:00.000Z', scans: 0, unique_visitors: 0 },
        { start: '2026-03-08T00:00:00.000Z', scans: 1, unique_visitors: 1 },
      ]);
      expect(body.breakdowns).toEqual({
        device: [
          { value: 'desktop', scans: 2 },
          { value: 'mobile', scans: 2 },
          { value: 'tablet', scans: 1 },
        ],
        os: [
          { value: 'iOS', scans: 3 },
          { value: 'Linux', scans: 1 },
          { value: 'macOS', scans: 1 },
        ],
        browser: [
          { value: 'Mobile Safari', scans: 3 },
          { value: 'Firefox', scans: 1 },
          { value: 'Safari', scans: 1 },
        ],
        referrer: [
          { value: 'direct', scans: 2 },
          { value: 'news.example', scans: 2 },
          { value: 'other', scans: 1 },
        ],
      });
    });

    it('buckets by ISO week from Monday; a partial first week counts only scans inside the window', async () => {
      const body = await ok(code.id, 'from=2026-03-04T00:00:00Z&to=2026-03-17T00:00:00Z&interval=week');
      expect(body.totals).toEqual({ scans: 4, unique_visitors: 4, bot_scans: 1 });
      expect(body.series).toEqual([
        { start: '2026-03-02T00:00:00.000Z', scans: 2, unique_visitors: 2 },
        { start: '2026-03-09T00:00:00.000Z', scans: 1, unique_visitors: 1 },
        { start: '2026-03-16T00:00:00.000Z', scans: 1, unique_visitors: 1 },
      ]);
    });

    it('buckets by hour; a window ending mid-hour stops at its end', async () => {
      const body = await ok(code.id, 'from=2026-03-02T09:30:00Z&to=2026-03-02T10:45:00Z&interval=hour');
      expect(body.series).toEqual([
        { start: '2026-03-02T09:00:00.000Z', scans: 0, unique_visitors: 0 },
        { start: '2026-03-02T10:00:00.000Z', scans: 1, unique_visitors: 1 },
      ]);
      expect(body.totals).toEqual({ scans: 1, unique_visitors: 1, bot_scans: 0 });
      expect(body.breakdowns.device).toEqual([{ value: 'desktop', scans: 1 }]);
    });

    it('honours the window edges to the millisecond', async () => {
      const lastMs = await ok(code.id, 'from=2026-03-01T23:59:59.999Z&to=2026-03-02T00:00:00.000Z');
      expect(lastMs.series).toEqual([{ start: '2026-03-01T00:00:00.000Z', scans: 1, unique_visitors: 1 }]);
      const firstMs = await ok(code.id, 'from=2026-03-02T00:00:00.000Z&to=2026-03-02T00:00:00.001Z');
      expect(firstMs.totals.scans).toBe(1);
      expect(firstMs.breakdowns.referrer).toEqual([{ value: 'news.example', scans: 1 }]);
      const between = await ok(code.id, 'from=2026-03-02T00:00:00.001Z&to=2026-03-02T10:30:00.000Z');
      expect(between.totals).toEqual({ scans: 0, unique_visitors: 0, bot_scans: 0 });
      expect(between.breakdowns).toEqual({ device: [], os: [], browser: [], referrer: [] });
    });

    it('reads offsets and answers in UTC; an unencoded + (a space) before the offset is read as +', async () => {
      for (const from of ['2026-03-02T01:00:00%2B01:00', '2026-03-02T01:00:00+01:00', '2026-03-01T19:00-05:00', '2026-03-02T00:00:00']) {
        const body = await ok(code.id, `from=${from}&to=2026-03-03T00:00:00Z`);
        expect(body.from).toBe('2026-03-02T00:00:00.000Z');
        expect(body.totals.scans).toBe(3);
      }
    });
  });

  it('lists the top 10 values of a breakdown, most scans first, ties by value', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    const hosts = Array.from({ length: 12 }, (_, index) => `h${String(index + 1).padStart(2, '0')}.example`);
    const extra = ['h12.example', 'h12.example', 'h05.example'];
    await insertScans(
      code.id,
      [...hosts, ...extra].map((host, index) => ({ at: '2026-05-10T12:00:00Z', visitor: `w${index}`, referrer: `https://${host}/p` })),
    );
    const body = await ok(code.id, 'from=2026-05-10T00:00:00Z&to=2026-05-11T00:00:00Z');
    expect(body.totals).toEqual({ scans: 15, unique_visitors: 15, bot_scans: 0 });
    expect(body.breakdowns.referrer).toEqual([
      { value: 'h12.example', scans: 3 },
      { value: 'h05.example', scans: 2 },
      ...['01', '02', '03', '04', '06', '07', '08', '09'].map((n) => ({ value: `h${n}.example`, scans: 1 })),
    ]);
    expect(body.breakdowns.device).toEqual([{ value: 'mobile', scans: 15 }]);
  });

  it('keeps the series bounded: 744 hours, 366 days and 53 Monday weeks at the longest windows', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    const hours = await ok(code.id, 'from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z&interval=hour');
    expect(hours.series).toHaveLength(744);
    expect(hours.series[743]).toEqual({ start: '2026-01-31T23:00:00.000Z', scans: 0, unique_visitors: 0 });
    const days = await ok(code.id, 'from=2025-03-02T00:00:00Z&to=2026-03-03T00:00:00Z');
    expect(days.series).toHaveLength(366);
    const weeks = await ok(code.id, 'from=2026-03-02T00:00:00Z&to=2027-03-03T00:00:00Z&interval=week');
    expect(weeks.series).toHaveLength(53);
    expect(starts(weeks)[52]).toBe('2027-03-01T00:00:00.000Z');
    expect(starts(weeks).every((start: string) => new Date(start).getUTCDay() === 1)).toBe(true);
    starts(weeks).forEach((start: string, index: number) => expect(Date.parse(start) - Date.parse('2026-03-02T00:00:00Z')).toBe(index * 7 * DAY));
  });

  it('answers a static code (no redirect, no scans) with zeros', async () => {
    const code = await createQr(t, key);
    const body = await ok(code.id, 'from=2026-03-02T00:00:00Z&to=2026-03-04T00:00:00Z');
    expect(body.totals).toEqual({ scans: 0, unique_visitors: 0, bot_scans: 0 });
    expect(body.series).toEqual([
      { start: '2026-03-02T00:00:00.000Z', scans: 0, unique_visitors: 0 },
      { start: '2026-03-03T00:00:00.000Z', scans: 0, unique_visitors: 0 },
    ]);
  });

  it("answers another account's code, a missing and a deleted id with 404 exactly like get, and a non-UUID id with 400 naming id", async () => {
    const theirs = await createQr(t, otherKey, { is_dynamic: true });
    await insertScans(theirs.id, [{ at: '2026-03-02T10:00:00Z', visitor: 'x1' }]);
    const deleted = await createQr(t, key, { is_dynamic: true });
    expectStatus(await t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${deleted.id}`, headers: auth(key) }), 200);
    expect(expectFieldErrors(await analytics('not-a-uuid', 'from=2026-03-02T00:00:00Z&to=2026-03-03T00:00:00Z'), 'id')).toEqual([
      { field: 'id', message: 'id must be a UUID' },
    ]);
    for (const id of [theirs.id, NO_SUCH_ID, deleted.id]) {
      const res = await analytics(id, 'from=2026-03-02T00:00:00Z&to=2026-03-03T00:00:00Z');
      const body = expectErrorBody(res, 404);
      const get = (await t.request({ method: 'GET', url: `/api/v1/qrcodes/${id}`, headers: auth(key) })).json();
      expect({ ...body, request_id: '' }).toEqual({ ...get, request_id: '' });
      expect(res.body).not.toContain('x1');
    }
    // The owner sees its scans.
    expect((await analytics(theirs.id, 'from=2026-03-02T00:00:00Z&to=2026-03-03T00:00:00Z', otherKey)).json().totals.scans).toBe(1);
  });

  it.each([
    ['from=yesterday', 'from'],
    ['from=2026-03-01', 'from'],
    ['to=2026-02-30T00:00:00Z', 'to'],
    ['from=1969-12-31T00:00:00Z&to=1970-01-02T00:00:00Z', 'from'],
    ['from=2026-03-09T00:00:00Z&to=2026-03-02T00:00:00Z', 'from'],
    ['from=2026-03-02T00:00:00Z&to=2026-03-02T00:00:00Z', 'from'],
    ['from=2099-01-01T00:00:00Z', 'from'],
    ['from=2025-03-01T00:00:00Z&to=2026-03-02T00:00:00.001Z', 'from'],
    ['from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00.001Z&interval=hour', 'from'],
    ['interval=year', 'interval'],
    ['from=2024-03-01T00:00:00Z&to=2026-03-02T00:00:00.001Z&interval=month', 'from'],
    ['tz=Mars/Olympus', 'tz'],
    ['tz=', 'tz'],
    ['tz=Europe/Berlin&tz=UTC', 'tz'],
    ['interval=', 'interval'],
    ['from=2026-03-01T00:00:00Z&from=2026-03-02T00:00:00Z', 'from'],
    ['limit=5', 'limit'],
  ])('answers %s with 400 naming %s', async (query, field) => {
    const code = await createQr(t, key, { is_dynamic: true });
    const errors = expectFieldErrors(await analytics(code.id, query), field);
    expect(errors.every((error) => error.message.length > 0)).toBe(true);
  });

  it('needs a valid API key', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    expectErrorBody(await analytics(code.id, '', null), 401);
    expectErrorBody(await analytics(code.id, '', 'qr_live_' + 'x'.repeat(40)), 401);
  });

  it('is in the OpenAPI document under qrcodes with the api-key scheme', async () => {
    const doc = (await t.request({ method: 'GET', url: '/docs-json' })).json();
    const operation = doc.paths['/api/v1/qrcodes/{id}/scans']?.get;
    expect(operation).toMatchObject({ tags: ['qrcodes'], security: [{ 'api-key': [] }] });
    expect(operation.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['from', 'id', 'interval', 'to', 'tz']);
    expect(JSON.stringify(operation.responses['200'])).toContain('ScanAnalyticsView');
  });
});
