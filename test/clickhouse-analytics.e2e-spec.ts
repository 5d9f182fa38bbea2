import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { ClickHouseScanEventsRepository } from '../src/analytics/clickhouse/clickhouse-scan-events.repository';
import type { AccountScanFilter } from '../src/analytics/scan-aggregates';
import { ScanAnalyticsEngines } from '../src/analytics/scan-analytics-engines';
import { ScanAnalyticsRepository } from '../src/analytics/scan-analytics.repository';
import { MAX_SPAN_DAYS, SCAN_INTERVALS, type ScanWindow } from '../src/analytics/scan-range';
import type { AccountId } from '../src/common/ids/account-id';
import type { ApiKeyId, FolderId, QrCodeId } from '../src/common/ids/resource-ids';
import { runInRequestContext } from '../src/infra/http/request-context';
import { MetricsService } from '../src/infra/observability/metrics.service';
import { ScanBuffer } from '../src/scans/scan-buffer.service';
import { ClickHouseTestServer, hasClickHouseServer } from './support/clickhouse-server';
import { describeWhen } from './support/environment';
import { auth, createFolder, createQr, expectStatus, GENEROUS_RATE_LIMIT, recordedScan } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
  null,
];
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const REFERRERS = [null, '', 'https://news.example/a', 'https://NEWS.example:8443/b?x=1', 'android-app://x', 'https://mail.example/'];
const PLACES: Array<[string | null, string | null]> = [
  [null, null],
  ['DE', 'Berlin'],
  ['US', 'Paris'],
  ['FR', 'Paris'],
  ['IN', null],
  ['NZ', 'Waitangi'],
];
/** Zones with DST changes in both hemispheres, half- and quarter-hour offsets, and Lord Howe's half-hour DST. */
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham'];
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

describeWhen(hasClickHouseServer)('ClickHouse answers every analytics question PostgreSQL answers (e2e, a clickhouse-server of its own)', () => {
  let server: ClickHouseTestServer;
  let t: TestApp;
  let key: string;
  let accountId: AccountId;
  const database = `qr_test_${randomBytes(4).toString('hex')}`;
  const warned = jest.spyOn(Logger.prototype, 'warn');
  const logged = (spy: jest.SpyInstance) => spy.mock.calls.map((call) => String(call[0])).join('\n');
  // 75 days back from now: Chatham's and Lord Howe's spring changes (late September, early October),
  // Berlin's and New York's autumn ones (late October, early November).
  const now = Date.now();
  const since = now - 75 * DAY;
  let folders: FolderId[];
  let codes: Array<{ id: QrCodeId; type: string }>;

  const postgres = () => t.app.get(ScanAnalyticsRepository);
  const clickhouse = () => t.app.get(ClickHouseScanEventsRepository);
  const engines = () => t.app.get(ScanAnalyticsEngines);
  const reads = async (engine: string) => {
    const metric = await t.app.get(MetricsService).scanAnalyticsReads.get();
    return metric.values.find((value) => value.labels.engine === engine)?.value ?? 0;
  };
  const chCount = async () => Number((await server.query(`SELECT count() FROM ${database}.scan_events`)).trim());
  const pgCount = async () => Number((await t.prisma.$queryRawUnsafe<Array<{ n: bigint }>>('SELECT count(*) AS n FROM scan_events'))[0].n);
  const outboxSize = async () =>
    Number((await t.prisma.$queryRawUnsafe<Array<{ n: bigint }>>('SELECT count(*) AS n FROM clickhouse_export_outbox'))[0].n);

  /** Waits until the outbox is empty and ClickHouse holds as many rows as PostgreSQL. */
  async function exported(withinMs = 60_000): Promise<void> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const [pending, pg, ch] = await Promise.all([outboxSize(), pgCount(), chCount().catch(() => -1)]);
      if (pending === 0 && pg === ch) return;
      if (Date.now() > deadline) throw new Error(`not exported within ${withinMs} ms: outbox ${pending}, PostgreSQL ${pg}, ClickHouse ${ch}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** `n` scans of the codes (weighted: earlier codes more) at random instants of [from, from + spanMs), stored. */
  async function scan(ids: string[], n: number, from: number, spanMs: number, random: () => number) {
    const buffer = t.app.get(ScanBuffer);
    for (let i = 0; i < n; i++) {
      const bot = random() < 0.07;
      const [country, city] = PLACES[Math.floor(random() * PLACES.length)];
      const rule = random() < 0.3 ? Math.floor(random() * 12) : null;
      buffer.record(
        recordedScan(ids[Math.floor(random() ** 2 * ids.length)], {
          at: from + Math.floor(random() * spanMs),
          userAgent: bot ? SLACK : AGENTS[Math.floor(random() * AGENTS.length)],
          referrer: REFERRERS[Math.floor(random() * REFERRERS.length)],
          ip: `203.0.113.${Math.floor(random() * 60)}`,
          isBot: bot,
          country,
          city,
          ruleIndex: rule,
          armIndex: rule !== null && random() < 0.5 ? Math.floor(random() * 3) : null,
        }),
      );
    }
    await buffer.flush();
  }

  /** A random window of the interval's longest span or less, in the zone, over the scans' days (and past them). */
  function randomWindow(random: () => number, interval: ScanWindow['interval'], timeZone: string): ScanWindow {
    const span = 1 + Math.floor(random() * Math.min(MAX_SPAN_DAYS[interval], interval === 'hour' ? 31 : 90) * DAY);
    const from = since - 5 * DAY + Math.floor(random() * 80 * DAY);
    return { from: new Date(from), to: new Date(Math.min(from + span, now + DAY)), interval, timeZone };
  }

  beforeAll(async () => {
    server = await ClickHouseTestServer.start();
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, CLICKHOUSE_URL: server.url(database), CLICKHOUSE_MAX_LAG_SECONDS: '5' });
    const account = await t.newAccount();
    key = account.key;
    accountId = account.accountId as AccountId;
    folders = [(await createFolder(t, key, 'Spring')).id, (await createFolder(t, key, 'Autumn')).id];
    const made = [];
    for (let i = 0; i < 14; i++) {
      const type = i % 3 === 2 ? 'text' : 'url';
      const folder = i % 4 === 3 ? undefined : folders[i % 2];
      made.push(await createQr(t, key, { type, ...(type === 'url' && { is_dynamic: true }), ...(folder && { folder_id: folder }) }));
    }
    codes = made.map((code) => ({ id: code.id as QrCodeId, type: code.type as string }));
    await scan(
      codes.map((code) => code.id),
      4000,
      since,
      75 * DAY,
      sequence(28),
    );
    await exported();
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await server?.close();
    warned.mockRestore();
  });

  it('gives PostgreSQL’s answers, per code and account-wide with and without filters, for random windows in every interval and zone', async () => {
    const random = sequence(5);
    const filters: AccountScanFilter[] = [{}, { folderId: folders[0] }, { type: 'text' }, { folderId: folders[1], type: 'url' }];
    let compared = 0;
    let nonEmpty = 0;
    for (const timeZone of ZONES)
      for (const interval of SCAN_INTERVALS)
        for (let round = 0; round < 2; round++) {
          const window = randomWindow(random, interval, timeZone);
          const label = `${timeZone} ${interval} ${window.from.toISOString()}..${window.to.toISOString()}`;
          for (const code of [codes[0], codes[1 + Math.floor(random() * (codes.length - 1))]]) {
            const expected = await postgres().aggregate(accountId, code.id, window);
            expect([label, code.id, await clickhouse().aggregate(accountId, code.id, window)]).toEqual([label, code.id, expected]);
            compared++;
            if (expected!.totals.scans > 0) nonEmpty++;
          }
          for (const filter of filters) {
            const expected = await postgres().accountAggregate(accountId, filter, window);
            expect([label, filter, await clickhouse().accountAggregate(accountId, filter, window)]).toEqual([label, filter, expected]);
            compared++;
          }
        }
    expect(compared).toBe(ZONES.length * SCAN_INTERVALS.length * 2 * 6);
    // The windows hold scans: the answers compared are not all zeros.
    expect(nonEmpty).toBeGreaterThan(compared / 6);
  }, 300_000);

  it('buckets the scans around DST changes and at quarter-hour offsets alike', async () => {
    // Whole-span windows ending at local midnights: every bucket boundary of the zone is inside.
    for (const timeZone of ZONES)
      for (const interval of ['day', 'week', 'month'] as const) {
        const window: ScanWindow = { from: new Date(since), to: new Date(now), interval, timeZone };
        const expected = await postgres().accountAggregate(accountId, {}, window);
        expect(expected.series.reduce((sum, bucket) => sum + bucket.scans, 0)).toBe(expected.totals.scans);
        expect(await clickhouse().accountAggregate(accountId, {}, window)).toEqual(expected);
      }
    const hours: ScanWindow = {
      from: new Date(since + 10 * DAY + 1234),
      to: new Date(since + 41 * DAY),
      interval: 'hour',
      timeZone: 'Pacific/Chatham',
    };
    expect(await clickhouse().aggregate(accountId, codes[0].id, hours)).toEqual(await postgres().aggregate(accountId, codes[0].id, hours));
  }, 120_000);

  it('counts only the folders of a folder-restricted key, and only codes PostgreSQL still has', async () => {
    const window: ScanWindow = { from: new Date(since), to: new Date(now), interval: 'week', timeZone: 'Europe/Berlin' };
    const restricted = {
      requestId: 'clickhouse-analytics-e2e',
      principal: { keyId: 'k' as ApiKeyId, keyPrefix: 'qr_test', accountId, scopes: [], folderIds: [folders[1]], expiresAt: null },
    };
    const [fromPostgres, fromClickHouse] = await runInRequestContext(restricted, () =>
      Promise.all([postgres().accountAggregate(accountId, {}, window), clickhouse().accountAggregate(accountId, {}, window)]),
    );
    expect(fromClickHouse).toEqual(fromPostgres);
    const all = await postgres().accountAggregate(accountId, {}, window);
    expect(fromPostgres.totals.scans).toBeLessThan(all.totals.scans);
    expect(fromPostgres.topCodes.length).toBeGreaterThan(0);

    // The busiest code deleted: its rows stay in ClickHouse, its scans leave PostgreSQL's answers and ClickHouse's alike.
    const busiest = all.topCodes[0].codeId;
    const res = await t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${busiest}`, headers: auth(key) });
    expectStatus(res, 200);
    expect(
      Number((await server.query(`SELECT count() FROM ${database}.scan_events WHERE qr_code_id = toUUID('${busiest}')`)).trim()),
    ).toBeGreaterThan(0);
    const after = await postgres().accountAggregate(accountId, {}, window);
    expect(after.totals.scans).toBeLessThan(all.totals.scans);
    expect(after.topCodes.map((code) => code.codeId)).not.toContain(busiest);
    expect(await clickhouse().accountAggregate(accountId, {}, window)).toEqual(after);
    expect(await clickhouse().accountAggregate(accountId, { folderId: folders[0] }, window)).toEqual(
      await postgres().accountAggregate(accountId, { folderId: folders[0] }, window),
    );
  }, 120_000);

  it('reads account-wide analytics and any zone from ClickHouse, and PostgreSQL answers when ClickHouse fails or is down', async () => {
    const window: ScanWindow = { from: new Date(now - 40 * DAY), to: new Date(now), interval: 'month', timeZone: 'Asia/Kolkata' };
    const expected = await postgres().accountAggregate(accountId, { type: 'url' }, window);
    const perCode = await postgres().aggregate(accountId, codes[0].id, window);

    const clickhouseReads = await reads('clickhouse');
    expect(await engines().accountAggregate(accountId, { type: 'url' }, window)).toEqual(expected);
    expect(await engines().aggregate(accountId, codes[0].id, window)).toEqual(perCode);
    expect(await reads('clickhouse')).toBe(clickhouseReads + 2);

    // The table gone from under the app: ClickHouse answers every query with an error.
    await server.query(`RENAME TABLE ${database}.scan_events TO ${database}.scan_events_away`);
    try {
      const postgresReads = await reads('postgresql');
      expect(await engines().accountAggregate(accountId, { type: 'url' }, window)).toEqual(expected);
      expect(await reads('postgresql')).toBe(postgresReads + 1);
      expect(logged(warned)).toMatch(/Scan analytics answered from PostgreSQL: ClickHouse failed the query/);
    } finally {
      await server.query(`RENAME TABLE ${database}.scan_events_away TO ${database}.scan_events`);
    }

    await server.stop();
    try {
      const postgresReads = await reads('postgresql');
      expect(await engines().accountAggregate(accountId, {}, window)).toEqual(await postgres().accountAggregate(accountId, {}, window));
      expect(await engines().aggregate(accountId, codes[0].id, window)).toEqual(perCode);
      expect(await reads('postgresql')).toBe(postgresReads + 2);
    } finally {
      await server.resume();
    }
  }, 120_000);
});
