import { sql } from 'kysely';
import type { AccountId } from '../common/ids/account-id';
import type { FolderId, QrCodeId } from '../common/ids/resource-ids';
import { recordedScan } from '../../test/support/factories';
import { useMediumDatabase } from '../../test/support/medium';
import { RowFactory } from '../../test/support/row-factories';
import { ScanBatchWriter } from '../scans/scan-batch';
import type { ScanEvent } from '../scans/scan-event';
import { ScanStoreRepository } from '../scans/scan-store.repository';
import { StoredScanListeners } from '../scans/stored-scans';
import { VisitorHasher } from '../scans/visitor-hash';
import { BREAKDOWN_TOP } from './scan-aggregates';
import { ScanAnalyticsRepository } from './scan-analytics.repository';
import type { ScanInterval, ScanWindow } from './scan-range';
import { planScanWindow } from './scan-window-plan';

const DAY = 86_400_000;
const AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Googlebot/2.1 (+http://www.google.com/bot.html)',
];
const REFERRERS = [
  null,
  '',
  'https://news.example/a',
  'http://user:pw@News.Example:8080/b',
  'not a url',
  'https://[2001:db8::1]/x',
  'https://t.co/z',
];
const COUNTRIES = [null, 'DE', 'FR', 'US', 'JP'];
const CITIES = [null, 'Paris', 'Berlin'];
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'Australia/Lord_Howe'];
const INTERVALS: ScanInterval[] = ['hour', 'day', 'week', 'month'];

/** A small seeded generator (mulberry32): the same cases on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface RawScan {
  code: QrCodeId;
  at: number;
  hash: string;
  bot: boolean;
  device: string;
  os: string;
  browser: string;
  host: string;
  country: string | null;
  city: string | null;
  rule: number | null;
  arm: number | null;
}

/** Orders as PostgreSQL's COLLATE "C" (bytes). */
const byBytes = (x: string, y: string) => Buffer.compare(Buffer.from(x), Buffer.from(y));

/** The answer computed straight from the raw rows, the way the rollups must reproduce it. */
function rawAnswer(scans: readonly RawScan[], window: ScanWindow, perCode: boolean) {
  const plan = planScanWindow(window);
  const starts = plan.starts.map((start) => start.getTime());
  const inWindow = scans.filter((scan) => scan.at >= window.from.getTime() && scan.at < window.to.getTime());
  const humans = inWindow.filter((scan) => !scan.bot);
  // Visitor hashes are per UTC day; account-wide, per code too.
  const visitorOf = (scan: RawScan) => (perCode ? scan.hash : `${scan.code}/${scan.hash}`);
  const series = starts.map((start) => ({ start: new Date(start), scans: 0, uniqueVisitors: 0, visitors: new Set<string>() }));
  for (const scan of humans) {
    let bucket = starts.length - 1;
    while (starts[bucket] > scan.at) bucket--;
    series[bucket].scans++;
    series[bucket].visitors.add(visitorOf(scan));
  }
  const top = (values: Array<{ value: string; detail: string }>) => {
    const counts = new Map<string, { value: string; detail: string; scans: number }>();
    for (const { value, detail } of values) {
      const key = `${value}\u0000${detail}`;
      const entry = counts.get(key) ?? { value, detail, scans: 0 };
      entry.scans++;
      counts.set(key, entry);
    }
    return [...counts.values()].sort((x, y) => y.scans - x.scans || byBytes(x.value, y.value) || byBytes(x.detail, y.detail)).slice(0, BREAKDOWN_TOP);
  };
  const plain = (entries: Array<{ value: string; scans: number }>) => entries.map(({ value, scans }) => ({ value, scans }));
  return {
    totals: {
      scans: humans.length,
      uniqueVisitors: new Set(humans.map(visitorOf)).size,
      botScans: inWindow.length - humans.length,
    },
    series: series.map(({ start, scans, visitors }) => ({ start, scans, uniqueVisitors: visitors.size })),
    breakdowns: {
      device: plain(top(humans.map((scan) => ({ value: scan.device, detail: '' })))),
      os: plain(top(humans.map((scan) => ({ value: scan.os, detail: '' })))),
      browser: plain(top(humans.map((scan) => ({ value: scan.browser, detail: '' })))),
      referrer: plain(top(humans.map((scan) => ({ value: scan.host, detail: '' })))),
    },
    byCountry: plain(top(humans.map((scan) => ({ value: scan.country ?? 'unknown', detail: '' })))),
    byCity: top(humans.filter((scan) => scan.city !== null).map((scan) => ({ value: scan.city!, detail: scan.country ?? '' }))).map(
      ({ value, detail, scans }) => ({ value, country: detail || null, scans }),
    ),
    byRule: top(humans.filter((scan) => scan.rule !== null).map((scan) => ({ value: String(scan.rule), detail: '' }))).map(({ value, scans }) => ({
      rule: Number(value),
      scans,
    })),
    byArm: top(
      humans.filter((scan) => scan.arm !== null).map((scan) => ({ value: String(scan.arm), detail: scan.rule === null ? '' : String(scan.rule) })),
    ).map(({ value, detail, scans }) => ({ rule: Number(detail), arm: Number(value), scans })),
  };
}

/**
 * The property of docs/scans-and-privacy.md#how-analytics-are-kept: for any window, interval and
 * time zone, the answers read from the daily rollups (kept by the scan store's batches, including
 * late batches of old days) equal the aggregation of the raw rows, exactly (unique visitors too:
 * the visitor sets are exact).
 */
describe('scan rollups equal the raw aggregation (medium, property)', () => {
  const db = useMediumDatabase();
  let store: ScanStoreRepository;
  let analytics: ScanAnalyticsRepository;
  let rows: RowFactory;
  let account: AccountId;
  let folder: FolderId;
  const codes: QrCodeId[] = [];
  const now = Date.now();
  const since = now - 70 * DAY;

  /** Every stored scan of the account's codes, as PostgreSQL keeps it (the referrer's host by its own function). */
  const rawScans = async (): Promise<RawScan[]> => {
    const found = await sql<{
      code: QrCodeId;
      at: Date;
      hash: string;
      bot: boolean;
      device: string;
      os: string;
      browser: string;
      host: string;
      country: string | null;
      city: string | null;
      rule: number | null;
      arm: number | null;
    }>`SELECT s.qr_code_id AS code, s.scanned_at AS at, s.visitor_hash AS hash, s.is_bot AS bot, s.device, s.os, s.browser,
        scan_referrer_host(s.referrer) AS host, s.country, s.city, s.rule_index AS rule, s.arm_index AS arm
      FROM scan_events s JOIN qr_codes q ON q.id = s.qr_code_id WHERE q.account_id = ${account}::uuid`.execute(db.tables);
    return found.rows.map((row) => ({ ...row, at: new Date(row.at).getTime() }));
  };

  beforeAll(async () => {
    store = new ScanStoreRepository(db.database, new StoredScanListeners());
    analytics = new ScanAnalyticsRepository(db.database);
    rows = new RowFactory(db.tables);
    account = await rows.account();
    folder = (await rows.folder(account)).id;
    codes.push((await rows.dynamicCode(account)).id);
    codes.push((await rows.dynamicCode(account, { folder_id: folder })).id);
    codes.push((await rows.dynamicCode(account, { type: 'text' })).id);
    // Another account's code, scanned alike: never in this account's answers.
    codes.push((await rows.dynamicCode(await rows.account())).id);

    const next = random(28);
    const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)];
    const writer = new ScanBatchWriter(VisitorHasher.withSecret('rollup-property-secret'));
    // Scans over 70 days, stored in batches out of time order (late batches of old days are recounted),
    // a few visitors per day returning (the same IP and agent on one day is one visitor).
    const events: ScanEvent[] = [];
    for (let i = 0; i < 1500; i++) {
      const agent = pick(AGENTS);
      const rule = next() < 0.3 ? Math.floor(next() * 3) : undefined;
      events.push(
        recordedScan(pick(codes), {
          at: Math.floor(since + next() * (now - since)),
          ip: `198.51.100.${Math.floor(next() * 12)}`,
          userAgent: agent,
          isBot: agent.startsWith('Googlebot'),
          referrer: pick(REFERRERS),
          country: pick(COUNTRIES),
          city: pick(CITIES),
          ruleIndex: rule,
          armIndex: rule !== undefined && next() < 0.5 ? Math.floor(next() * 2) : undefined,
        }),
      );
    }
    for (let start = 0; start < events.length; start += 100) {
      const batch = writer.write(events.slice(start, start + 100));
      await store.storeBatches([batch]);
      // A batch stored again (a replay) adds nothing.
      if (start === 300) await store.storeBatches([batch]);
    }
    // Scans of today, in several batches: their visitors are counted through the kept visitor sets.
    for (let round = 0; round < 3; round++)
      await store.storeBatches([
        writer.write(
          Array.from({ length: 40 }, () =>
            recordedScan(pick(codes), {
              at: now - Math.floor(next() * 3_600_000),
              ip: `203.0.113.${Math.floor(next() * 8)}`,
              userAgent: pick(AGENTS),
            }),
          ),
        ),
      ]);
  });

  const windows = (seed: number, count: number): ScanWindow[] => {
    const next = random(seed);
    return Array.from({ length: count }, (_, i) => {
      const interval = INTERVALS[i % INTERVALS.length];
      const span = Math.max(1, Math.floor(next() * (interval === 'hour' ? 9 : 80) * DAY));
      const from = since - 5 * DAY + Math.floor(next() * 75 * DAY);
      return { from: new Date(from), to: new Date(Math.min(from + span, now + DAY)), interval, timeZone: ZONES[i % ZONES.length] };
    });
  };

  it('per code: totals, series, breakdowns, rules and arms', async () => {
    const scans = await rawScans();
    expect(scans.length).toBeGreaterThan(1000);
    for (const window of windows(1, 24))
      for (const code of codes.slice(0, 3)) {
        const answer = await analytics.aggregate(account, code, window);
        expect({ window, code, answer }).toEqual({
          window,
          code,
          answer: rawAnswer(
            scans.filter((scan) => scan.code === code),
            window,
            true,
          ),
        });
      }
  });

  it('account-wide, whole and narrowed by folder and type, after a code moved folders and one was deleted', async () => {
    await db.tables.updateTable('qr_codes').set({ folder_id: folder }).where('id', '=', codes[2]).execute();
    await db.tables.updateTable('qr_codes').set({ folder_id: null }).where('id', '=', codes[1]).execute();
    await db.tables.deleteFrom('qr_codes').where('id', '=', codes[0]).execute();
    const scans = await rawScans();
    const codeRows = await db.tables
      .selectFrom('qr_codes')
      .select(['id', 'folder_id', 'type', 'name', 'short_code'])
      .where('account_id', '=', account)
      .execute();
    for (const window of windows(2, 16))
      for (const filter of [{}, { folderId: folder }, { type: 'url' as const }]) {
        const allowed = new Set(
          codeRows
            .filter((row) => (!('folderId' in filter) || row.folder_id === folder) && (!('type' in filter) || row.type === 'url'))
            .map((row) => row.id),
        );
        const expected = rawAnswer(
          scans.filter((scan) => allowed.has(scan.code)),
          window,
          false,
        );
        const answer = await analytics.accountAggregate(account, filter, window);
        const { byRule: _rules, byArm: _arms, ...wanted } = expected;
        const perCode = new Map<string, number>();
        for (const scan of scans)
          if (allowed.has(scan.code) && !scan.bot && scan.at >= window.from.getTime() && scan.at < window.to.getTime())
            perCode.set(scan.code, (perCode.get(scan.code) ?? 0) + 1);
        const topCodes = [...perCode]
          .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
          .map(([id, scans]) => {
            const row = codeRows.find((code) => code.id === id)!;
            return { codeId: id, name: row.name, shortCode: row.short_code, type: row.type, scans };
          });
        expect({ window, filter, answer }).toEqual({ window, filter, answer: { ...wanted, topCodes } });
      }
  });

  it('top codes stay exact when the largest counters are not the window’s largest (the candidates grow)', async () => {
    const owner = await rows.account();
    const writer = new ScanBatchWriter(VisitorHasher.withSecret('top-codes-secret'));
    const busy = await Promise.all(Array.from({ length: 12 }, () => rows.dynamicCode(owner)));
    const quiet = await Promise.all(Array.from({ length: 105 }, () => rows.dynamicCode(owner)));
    // Large counters without a scan in the window (as after an erasure, which keeps `scans`).
    await db.tables
      .updateTable('qr_codes')
      .set({ scans: 500n })
      .where(
        'id',
        'in',
        quiet.map((code) => code.id),
      )
      .execute();
    const at = now - 2 * DAY;
    await store.storeBatches([
      writer.write(busy.flatMap((code, i) => Array.from({ length: i + 1 }, (_, n) => recordedScan(code.id, { at: at + n, ip: `192.0.2.${n}` })))),
    ]);
    const window: ScanWindow = { from: new Date(now - 5 * DAY), to: new Date(now), interval: 'day', timeZone: 'UTC' };
    const answer = await analytics.accountAggregate(owner, {}, window);
    expect(answer.topCodes.map((code) => [code.codeId, code.scans])).toEqual(
      busy
        .map((code, i) => [code.id, i + 1] as const)
        .reverse()
        .slice(0, BREAKDOWN_TOP),
    );
  });
});
