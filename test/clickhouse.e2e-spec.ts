import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { ClickHouseScanEventsRepository } from '../src/analytics/clickhouse/clickhouse-scan-events.repository';
import { ScanAnalyticsRepository } from '../src/analytics/scan-analytics.repository';
import type { ScanWindow } from '../src/analytics/scan-range';
import type { AccountId } from '../src/common/ids/account-id';
import type { QrCodeId } from '../src/common/ids/resource-ids';
import { MetricsService } from '../src/infra/observability/metrics.service';
import { ScanBuffer } from '../src/scans/scan-buffer.service';
import { ClickHouseTestServer, hasClickHouseServer } from './support/clickhouse-server';
import { describeWhen } from './support/environment';
import { auth, createQr, eventually, expectStatus, GENEROUS_RATE_LIMIT, recordedScan } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const AGENTS = [IPHONE, ANDROID, FIREFOX, null];
const REFERRERS = [
  null,
  '',
  '  ',
  'https://news.example/a',
  'https://NEWS.example:8443/b?x=1',
  'https://[2001:db8::1]:8080/x',
  'android-app://x',
  'ürl',
  'https://u:p@mail.example/',
];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A deterministic pseudo-random sequence, so a failure can be replayed. */
function sequence(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describeWhen(hasClickHouseServer)('ClickHouse as the analytics engine (e2e, a clickhouse-server of its own)', () => {
  let server: ClickHouseTestServer;
  let t: TestApp;
  let key: string;
  let accountId: AccountId;
  const database = `qr_test_${randomBytes(4).toString('hex')}`;
  // Nest's logger writes nothing in tests: what the app logs is read from the calls.
  const warned = jest.spyOn(Logger.prototype, 'warn');
  const told = jest.spyOn(Logger.prototype, 'log');
  const logged = (spy: jest.SpyInstance) => spy.mock.calls.map((call) => String(call[0])).join('\n');

  beforeAll(async () => {
    server = await ClickHouseTestServer.start();
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, CLICKHOUSE_URL: server.url(database), CLICKHOUSE_MAX_LAG_SECONDS: '5' });
    const account = await t.newAccount();
    key = account.key;
    accountId = account.accountId as AccountId;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await server?.close();
    warned.mockRestore();
    told.mockRestore();
  });

  const buffer = () => t.app.get(ScanBuffer);
  const chCount = async (where = '1') => Number((await server.query(`SELECT count() FROM ${database}.scan_events WHERE ${where}`)).trim());
  const chDistinctEvents = async () => Number((await server.query(`SELECT uniqExact(event_id) FROM ${database}.scan_events`)).trim());
  const pgCount = async () => Number((await t.prisma.$queryRawUnsafe<Array<{ n: bigint }>>('SELECT count(*) AS n FROM scan_events'))[0].n);
  const outboxSize = async () =>
    Number((await t.prisma.$queryRawUnsafe<Array<{ n: bigint }>>('SELECT count(*) AS n FROM clickhouse_export_outbox'))[0].n);
  const reads = async (engine: string) => {
    const metric = await t.app.get(MetricsService).scanAnalyticsReads.get();
    return metric.values.find((value) => value.labels.engine === engine)?.value ?? 0;
  };

  /** Waits until the outbox is empty and ClickHouse holds as many rows as PostgreSQL. */
  async function exported(withinMs = 30_000): Promise<void> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const [pending, pg, ch] = await Promise.all([outboxSize(), pgCount(), chCount().catch(() => -1)]);
      if (pending === 0 && pg === ch) return;
      if (Date.now() > deadline) throw new Error(`not exported within ${withinMs} ms: outbox ${pending}, PostgreSQL ${pg}, ClickHouse ${ch}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** `n` scans of the codes at random instants from `since` for `spanMs`, stored. */
  async function scan(codes: string[], n: number, since: number, spanMs: number, random = sequence(n)) {
    for (let i = 0; i < n; i++) {
      const bot = random() < 0.08;
      buffer().record(
        recordedScan(codes[Math.floor(random() * codes.length)], {
          at: since + Math.floor(random() * spanMs),
          userAgent: bot ? SLACK : AGENTS[Math.floor(random() * AGENTS.length)],
          referrer: REFERRERS[Math.floor(random() * REFERRERS.length)],
          ip: `203.0.113.${Math.floor(random() * 40)}`,
          isBot: bot,
        }),
      );
    }
    await buffer().flush();
  }

  it('writes every stored batch once, and /scans from ClickHouse answers what PostgreSQL answers, window by window', async () => {
    const codes = await Promise.all([1, 2, 3].map(() => createQr(t, key, { is_dynamic: true })));
    const now = Date.now();
    const since = now - 40 * DAY;
    await scan(
      codes.map((c) => c.id),
      3000,
      since,
      40 * DAY,
    );
    await exported();
    expect(await chCount()).toBe(3000);
    expect(await chDistinctEvents()).toBe(3000);
    // Every column carried, the code's account with it.
    const [row] = JSON.parse(
      `[${(await server.query(`SELECT * FROM ${database}.scan_events WHERE is_bot = 0 AND referrer = 'https://NEWS.example:8443/b?x=1' LIMIT 1 FORMAT JSONEachRow`)).trim()}]`,
    ) as Array<Record<string, unknown>>;
    expect(row).toMatchObject({ account_id: accountId, referrer_host: 'news.example', device: expect.any(String), country: null, rule_index: null });
    expect(row.visitor_hash).toMatch(/^[0-9a-f]{32}$/);

    const postgres = t.app.get(ScanAnalyticsRepository);
    const clickhouse = t.app.get(ClickHouseScanEventsRepository);
    const random = sequence(7);
    const windows: ScanWindow[] = [
      { from: new Date(now - 30 * DAY), to: new Date(now), interval: 'day', timeZone: 'UTC' },
      { from: new Date(since), to: new Date(now), interval: 'week', timeZone: 'UTC' },
      { from: new Date(now - 5 * DAY - 1234), to: new Date(now - 3 * DAY + 567), interval: 'hour', timeZone: 'UTC' },
    ];
    for (let i = 0; i < 6; i++) {
      const from = since + Math.floor(random() * 35 * DAY);
      const interval = (['hour', 'day', 'week'] as const)[i % 3];
      const span = Math.max(1, Math.floor(random() * (interval === 'hour' ? 31 : 60) * DAY));
      windows.push({ from: new Date(from), to: new Date(from + span), interval, timeZone: 'UTC' });
    }
    for (const window of windows) {
      for (const code of codes) {
        const expected = await postgres.aggregate(accountId, code.id as QrCodeId, window);
        expect(expected!.totals.scans).toBeGreaterThanOrEqual(0);
        expect(await clickhouse.aggregate(accountId, code.id as QrCodeId, window)).toEqual(expected);
      }
    }
    // Another account's code is missing in ClickHouse as in PostgreSQL.
    const stranger = (await t.newAccount()).accountId as AccountId;
    expect(await clickhouse.aggregate(stranger, codes[0].id as QrCodeId, windows[0])).toBeNull();

    // Through the API: caught up, ClickHouse answers, and the body is PostgreSQL's.
    const before = await reads('clickhouse');
    const query = `from=${windows[0].from.toISOString()}&to=${windows[0].to.toISOString()}&interval=day`;
    const res = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${codes[0].id}/scans?${query}`, headers: auth(key) });
    expectStatus(res, 200);
    expect(await reads('clickhouse')).toBe(before + 1);
    const expected = await postgres.aggregate(accountId, codes[0].id as QrCodeId, windows[0]);
    expect(res.json().totals).toEqual({
      scans: expected!.totals.scans,
      unique_visitors: expected!.totals.uniqueVisitors,
      bot_scans: expected!.totals.botScans,
    });
    expect(res.json().breakdowns).toEqual(expected!.breakdowns);

    const metrics = await t.request({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/^clickhouse_export_lag_seconds \d/m);
    expect(metrics.body).toMatch(/^clickhouse_up 1$/m);
  }, 120_000);

  it('keeps answering from PostgreSQL while ClickHouse is down, and writes what was stored meanwhile once, after it is back', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    const now = Date.now();
    await scan([code.id], 400, now - 2 * DAY, 2 * DAY, sequence(11));
    await exported();

    await server.stop();
    try {
      await whileDown();
    } finally {
      await server.resume();
    }
    await exported(60_000);
    expect(await chCount(`qr_code_id = toUUID('${code.id}')`)).toBe(1400);
    expect(await chDistinctEvents()).toBe(await chCount());
    expect(logged(told)).toMatch(/ClickHouse export resumed/);

    async function whileDown() {
      // Mid-stream: batches stored while ClickHouse is down wait in the outbox.
      for (let round = 0; round < 5; round++) await scan([code.id], 200, now - DAY, DAY, sequence(100 + round));
      expect(await outboxSize()).toBeGreaterThan(0);
      // The worker's next step fails: it says so once, and the instance stops reading ClickHouse.
      expect(await eventually(async () => /ClickHouse export failing/.test(logged(warned)), true, 10_000)).toBe(true);
      const pgReadsBefore = await reads('postgresql');
      const res = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}/scans`, headers: auth(key) });
      expectStatus(res, 200);
      expect(res.json().totals.scans + res.json().totals.bot_scans).toBe(1400);
      expect(await reads('postgresql')).toBe(pgReadsBefore + 1);
      const ready = await t.request({ method: 'GET', url: '/health/ready' });
      expect(ready.json()).toMatchObject({ status: 'degraded', components: { clickhouse: { status: 'down' } } });
      const metrics = await t.request({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(/^clickhouse_up 0$/m);
      // The gauge is the worker's last measurement (taken before each step, at most once a second):
      // one taken before the last rounds were stored may still say 0 until the next failed step.
      const pending = async () =>
        Number(/^clickhouse_export_pending_batches (\d+)/m.exec((await t.request({ method: 'GET', url: '/metrics' })).body)?.[1]) > 0;
      expect(await eventually(pending, true, 30_000)).toBe(true);
    }
  }, 180_000);

  it('writes nothing twice when a batch it wrote is claimed again (a crash between the INSERT and the outbox delete)', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    await scan([code.id], 300, Date.now() - HOUR, HOUR, sequence(21));
    await exported();
    const total = await chCount();
    // The outbox rows of written batches, back as a crashed step leaves them: claimed once, lease over.
    const batches = (await server.query(`SELECT DISTINCT toString(batch_id) FROM ${database}.scan_events WHERE qr_code_id = toUUID('${code.id}')`))
      .trim()
      .split('\n');
    expect(batches.length).toBeGreaterThan(0);
    for (const batchId of batches) {
      const keys = (
        await server.query(
          `SELECT toString(event_id), toUInt64(scanned_at_ms) FROM ${database}.scan_events ` +
            `WHERE batch_id = toUUID('${batchId}') ORDER BY scanned_at_ms`,
        )
      )
        .trim()
        .split('\n')
        .map((line) => line.split('\t'));
      await t.prisma.$executeRawUnsafe(
        `INSERT INTO clickhouse_export_outbox
           (batch_id, row_count, code_ids, first_scanned_at, last_scanned_at, event_ids, attempts, lease_expires_at)
         VALUES ($1::uuid, $2, ARRAY[$3::uuid], $4::timestamptz, $5::timestamptz, $6::uuid[], 1, now() - interval '1 second')`,
        batchId,
        keys.length,
        code.id,
        new Date(Number(keys[0][1])).toISOString(),
        new Date(Number(keys[keys.length - 1][1])).toISOString(),
        keys.map((k) => k[0]),
      );
    }
    await exported();
    expect(await chCount()).toBe(total);
    expect(await chDistinctEvents()).toBe(total);
  }, 60_000);

  it('answers from PostgreSQL when ClickHouse fails the query, logging a warning', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    await scan([code.id], 50, Date.now() - HOUR, HOUR, sequence(31));
    await exported();
    // The table gone from under the app: ClickHouse is up and answers every query with an error.
    await server.query(`RENAME TABLE ${database}.scan_events TO ${database}.scan_events_away`);
    try {
      const before = await reads('postgresql');
      const res = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}/scans`, headers: auth(key) });
      expectStatus(res, 200);
      expect(res.json().totals.scans + res.json().totals.bot_scans).toBe(50);
      expect(await reads('postgresql')).toBe(before + 1);
      expect(logged(warned)).toMatch(/Scan analytics answered from PostgreSQL: ClickHouse failed the query/);
    } finally {
      await server.query(`RENAME TABLE ${database}.scan_events_away TO ${database}.scan_events`);
    }
  }, 60_000);
});
