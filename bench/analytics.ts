/**
 * Scan analytics at 10M scans (issue 28): seeding rate, storage per million scans, and the latency
 * of /scans and /analytics at 10 connections, on PostgreSQL and (BENCH_CLICKHOUSE=1) on ClickHouse.
 *
 *   node -r @swc-node/register bench/analytics.ts [--duration=10] [--connections=10] [--only=REGEX] [--skip-load] [--reseed]
 *
 *   --duration      seconds of load per scenario (default 10; plus a 1 s warm-up)
 *   --connections   autocannon connections (default 10)
 *   --only=REGEX    only the scenarios whose label matches
 *   --max-serial=MS a scenario whose first request takes longer than this (default 5000 ms) is timed by one more
 *                   request alone: ten connections of it would run for minutes on a shared machine
 *   --skip-load     seed (or find the seed) and print the storage figures only
 *   --reseed        drop the bench database and seed again even when it holds the seed
 *   --explain       before the load, EXPLAIN (ANALYZE, BUFFERS) of each scenario's analytics statements: those
 *                   the app sent for one request (text and parameters, caught at the pg driver),
 *                   run again by the bench on a connection of its own, warm
 *
 * Environment:
 *   BENCH_PG_URL     admin connection (default postgresql://postgres@127.0.0.1:5432/postgres)
 *   BENCH_DB         the bench database, must start with qr_bench (default qr_bench_analytics). A database
 *                    that holds the seed of the same size (the marker table bench_analytics_seed) is reused:
 *                    re-runs measure only. Anything else of that name is dropped and seeded again.
 *   BENCH_EVENTS     scan events to seed (default 10,000,000)
 *   BENCH_CODES      dynamic codes of the account (default 10,000)
 *   BENCH_REDIS_URL  Redis of the bench app (default redis://127.0.0.1:6379)
 *   BENCH_REDIS_PREFIX  its REDIS_KEY_PREFIX (default qr-bench-analytics:), apart from other instances' scan queues
 *   BENCH_CLICKHOUSE=1  also start a clickhouse-server of its own (test/support/clickhouse-server.ts), copy the
 *                    seed into it and measure an app with CLICKHOUSE_URL beside the PostgreSQL-only app
 *
 * The seed: BENCH_EVENTS scans over the 730 days ending now, across BENCH_CODES dynamic codes of one account
 * (Zipf, s = 1: the first code takes ~1/H(n) of them, 1.02M of 10M; the last ~100), 20 folders holding 60 %
 * of the codes, four types (url 75 %, vcard 10 %, text 8 %, email 7 %). Volume grows over the two years
 * (0.6x to 1.4x), with a weekly and a daily rhythm. Each scan: a real user agent (classified by the scan
 * writer's own classifier: 8 OSes, 10 browsers, three device classes), 15 % bots (crawlers and link
 * previews), a referrer from ~30 hosts or none (~45 % direct), one of 60 countries (3 % unknown, no
 * city: a country header's deployment), rule and arm indexes on a few codes, and a visitor hash that
 * repeats within the code's UTC day for ~30 % of the scans.
 *
 * How it is loaded: one month partition per month first (scan_events_ensure_month), then COPY into
 * scan_events in chunks of 30 days streamed from a generator (never more than a day's rows in memory),
 * then the rollups as the migration builds them for existing rows: scan_rollups_build over all codes,
 * one call per calendar month (one call for two years holds every group of 10M rows at once), and the
 * visitor hashes of today and yesterday (scan_day_visitors). Then VACUUM ANALYZE, as autovacuum would.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { fork } from 'node:child_process';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { isbot } from 'isbot';
import { createApp } from '../src/app.factory';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { loadAppConfig } from '../src/config/app-config';
import { clickHouseSchema } from '../src/infra/clickhouse/clickhouse-schema';
import { ClickHouseStatus } from '../src/infra/clickhouse/clickhouse-status';
import { migratePostgres } from '../src/infra/database/database-connection';
import { MetricsService } from '../src/infra/observability/metrics.service';
import { SCAN_EVENT_COLUMNS } from '../src/scans/scan-batch';
import { classifyUserAgent } from '../src/scans/user-agent-class';
import { ClickHouseTestServer } from '../test/support/clickhouse-server';
import type { LoadJob, LoadResult } from './load-worker';
import { percentile } from './percentile';

// ---------------------------------------------------------------------------------------------
// Options
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string, fallback: number) => {
  const found = argv.find((arg) => arg.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const DURATION = option('duration', 10);
const CONNECTIONS = option('connections', 10);
const MAX_SERIAL_MS = option('max-serial', 5000);
const SKIP_LOAD = flag('skip-load');
const RESEED = flag('reseed');
const EXPLAIN = flag('explain');
const ONLY = new RegExp(argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length) ?? '');
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const CODES = Number(process.env.BENCH_CODES ?? 10_000);
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_DB ?? 'qr_bench_analytics';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const REDIS_PREFIX = process.env.BENCH_REDIS_PREFIX ?? 'qr-bench-analytics:';
const CLICKHOUSE = process.env.BENCH_CLICKHOUSE === '1';

if (!/^qr_bench[a-z0-9_]*$/.test(DB_NAME)) throw new Error('BENCH_DB must match ^qr_bench[a-z0-9_]*$ (the bench drops it)');
if (!(EVENTS >= 1000 && CODES >= 10)) throw new Error('BENCH_EVENTS must be at least 1000 and BENCH_CODES at least 10');

const dbUrl = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
})();

const ACCOUNT = '0b0e5c1a-0000-4000-8000-0000000a0001';
const DAY_MS = 86_400_000;
const SPAN_DAYS = 730;
const FOLDERS = 20;
/** Codes by rank (1 = the most scanned) are named so that a reused seed finds them again. */
const codeName = (rank: number) => `Bench code ${String(rank).padStart(5, '0')}`;

const log = (line = '') => process.stdout.write(`${line}\n`);
const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(1);
const thousands = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const peakRss = () => `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`;

async function withClient<T>(url: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// What the scans look like

/** Deterministic randomness (mulberry32): the same seed gives the same data. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = randomSource(28);

/** Picks an index by weight: cumulative weights and a binary search. */
function weighted(weights: readonly number[]): () => number {
  const cumulative = new Float64Array(weights.length);
  let sum = 0;
  weights.forEach((weight, index) => (cumulative[index] = sum += weight));
  return () => {
    const r = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid] <= r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Human user agents and their share of scans (phones first, as scans of printed codes are). */
const HUMAN_AGENTS: Array<[string, number]> = [
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 22],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 16_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1', 8],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1',
    3,
  ],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 330.0.0.40.92', 2],
  ['Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 3],
  ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36', 12],
  ['Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.6312.99 Mobile Safari/537.36', 8],
  ['Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36', 6],
  [
    'Mozilla/5.0 (Linux; Android 13; 2201117TG) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/112.0.5615.136 Mobile Safari/537.36 ' +
      'XiaoMi/MiuiBrowser/14.5.10',
    2,
  ],
  ['Mozilla/5.0 (Android 14; Mobile; rv:126.0) Gecko/126.0 Firefox/126.0', 1],
  ['Mozilla/5.0 (Linux; Android 12; SM-T870) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 1],
  [
    'Mozilla/5.0 (Linux; Android 14; Pixel 7 Build/UQ1A.240205.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 ' +
      'Chrome/124.0.6367.82 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/460.0.0.48.109;]',
    2,
  ],
  ['Mozilla/5.0 (Linux; U; Android 10; HarmonyOS; ELS-NX9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.4844.88 Mobile Safari/537.36', 1],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 9],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51', 4],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:126.0) Gecko/20100101 Firefox/126.0', 2],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0', 1],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 4],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 3],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:126.0) Gecko/20100101 Firefox/126.0', 1],
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 1],
  ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0', 1],
  ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 1],
  ['Mozilla/5.0 (Mobile; LYF/F300B/LYF-F300B-001-01-15-130718-i;Android; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5', 0.3],
];
/** Crawlers, link previews and monitors: 15 % of the scans. */
const BOT_AGENTS: Array<[string, number]> = [
  ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 4],
  ['facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', 3],
  ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 2],
  ['WhatsApp/2.23.20.0', 3],
  ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 2],
  ['Twitterbot/1.0', 1],
  ['TelegramBot (like TwitterBot)', 1],
  ['curl/8.5.0', 1],
];
const BOT_SHARE = 0.15;
/** Referrers (mostly an origin: browsers send only that across sites); null is direct, as scans of printed codes mostly are. */
const REFERRERS: Array<[string | null, number]> = [
  [null, 45],
  ['https://www.google.com/', 12],
  ['https://www.google.de/', 2],
  ['https://l.facebook.com/', 5],
  ['https://lm.facebook.com/l.php?u=https%3A%2F%2Facme.example', 2],
  ['https://l.instagram.com/', 5],
  ['https://www.instagram.com/', 2],
  ['https://t.co/', 3],
  ['https://www.linkedin.com/', 2],
  ['https://lnkd.in/', 1],
  ['https://www.bing.com/', 2],
  ['https://duckduckgo.com/', 1],
  ['https://search.yahoo.com/', 0.5],
  ['https://www.ecosia.org/', 0.5],
  ['https://yandex.ru/', 0.3],
  ['https://www.reddit.com/', 1],
  ['https://out.reddit.com/t3_1abcde', 0.5],
  ['https://mail.google.com/', 2],
  ['https://outlook.live.com/', 1],
  ['android-app://com.google.android.gm/', 1],
  ['https://www.youtube.com/', 1],
  ['https://m.youtube.com/', 0.5],
  ['https://www.pinterest.com/', 0.5],
  ['https://www.tiktok.com/', 1],
  ['https://web.whatsapp.com/', 1],
  ['https://teams.microsoft.com/', 0.5],
  ['https://app.slack.com/', 0.5],
  ['https://news.ycombinator.com/', 0.2],
  ['https://medium.com/@acme/launch-2', 0.3],
  ['https://acme.substack.com/p/spring', 0.3],
  ['https://www.acme.com/stores', 2],
  ['https://shop.acme.com/cart', 1],
];
const COUNTRIES = (
  'US DE GB FR NL ES IT CA BR IN JP AU MX PL SE BE CH AT TR PT DK NO FI IE CZ RO HU GR ZA AR CL CO PE KR TW SG MY TH ID PH VN NZ IL AE SA ' +
  'EG NG KE MA UA SK BG HR SI LT LV EE LU IS'
).split(' ');
/** Codes (by rank) with smart-link rules: their scans carry the matched rule's index, a few an arm's too. */
const RULE_CODES = new Map<number, { rules: number; arms: boolean }>([
  [2, { rules: 3, arms: true }],
  [3, { rules: 2, arms: false }],
  [7, { rules: 4, arms: true }],
  [15, { rules: 2, arms: false }],
  [40, { rules: 3, arms: true }],
]);
const REPEAT_SHARE = 0.3;
const VISITOR_RING = 16;

/** A user agent's COPY fields as the scan writer writes them (user_agent, device, os, browser, is_bot). */
function agentFields(agents: Array<[string, number]>, bot: boolean): string[] {
  return agents.map(([ua]) => {
    const isBot = bot && isbot(ua);
    if (bot && !isBot) throw new Error(`isbot does not know ${ua}`);
    const found = classifyUserAgent(ua, isBot);
    return `${ua}\t${found.device}\t${found.os}\t${found.browser}\t${isBot ? 't' : 'f'}`;
  });
}

/**
 * The generator of scan rows (COPY text, SCAN_EVENT_COLUMNS' order) of days [fromDay, toDay) of the
 * span, in time order, a day's rows at a time. Day d's share of the events: a growth over the two
 * years times a weekly rhythm; within a day, a rhythm by UTC hour.
 */
class ScanGenerator {
  readonly perDay: Int32Array;
  private readonly pickCode: () => number;
  private readonly pickHuman = weighted(HUMAN_AGENTS.map(([, w]) => w));
  private readonly pickBot = weighted(BOT_AGENTS.map(([, w]) => w));
  private readonly pickReferrer = weighted(REFERRERS.map(([, w]) => w));
  private readonly pickCountry = weighted(COUNTRIES.map((_c, k) => 1 / Math.pow(k + 1, 0.9)));
  private readonly pickHour = weighted([2, 1, 1, 1, 1, 2, 3, 5, 7, 8, 9, 10, 11, 11, 11, 11, 12, 12, 12, 11, 9, 7, 5, 3]);
  private readonly humanFields = agentFields(HUMAN_AGENTS, false);
  private readonly botFields = agentFields(BOT_AGENTS, true);
  private readonly referrers = REFERRERS.map(([referrer]) => referrer ?? '\\N');
  private readonly ringDay: Int32Array;
  private readonly rings: string[][];
  private hexPool = Buffer.alloc(0);
  private hexAt = 0;

  constructor(
    private readonly codeIds: readonly string[],
    private readonly start: number,
  ) {
    this.pickCode = weighted(codeIds.map((_id, k) => 1 / (k + 1)));
    const weights = Array.from({ length: SPAN_DAYS }, (_d, d) => {
      const weekday = new Date(start + d * DAY_MS).getUTCDay();
      return (0.6 + (0.8 * d) / (SPAN_DAYS - 1)) * (weekday === 0 ? 0.75 : weekday === 6 ? 0.85 : 1);
    });
    const sum = weights.reduce((a, b) => a + b, 0);
    this.perDay = Int32Array.from(weights, (w) => Math.floor((EVENTS * w) / sum));
    this.perDay[SPAN_DAYS - 1] += EVENTS - this.perDay.reduce((a, b) => a + b, 0);
    this.ringDay = new Int32Array(codeIds.length).fill(-1);
    this.rings = codeIds.map(() => []);
  }

  private hash(): string {
    if (this.hexAt + 16 > this.hexPool.length) {
      this.hexPool = randomBytes(16 * 8192);
      this.hexAt = 0;
    }
    this.hexAt += 16;
    return this.hexPool.toString('hex', this.hexAt - 16, this.hexAt);
  }

  /** A visitor hash of the code's UTC day: a returning visitor's for REPEAT_SHARE of the scans when the day has some. */
  private visitor(rank: number, utcDay: number): string {
    const ring = this.rings[rank];
    if (this.ringDay[rank] !== utcDay) {
      this.ringDay[rank] = utcDay;
      ring.length = 0;
    } else if (ring.length > 0 && random() < REPEAT_SHARE) return ring[Math.floor(random() * ring.length)];
    const hash = this.hash();
    if (ring.length < VISITOR_RING) ring.push(hash);
    else ring[Math.floor(random() * VISITOR_RING)] = hash;
    return hash;
  }

  /** One day's rows as one string. */
  day(d: number): string {
    const dayStart = this.start + d * DAY_MS;
    const midnight = dayStart - (dayStart % DAY_MS);
    const times = new Float64Array(this.perDay[d]);
    for (let i = 0; i < times.length; i++) {
      let t = midnight + this.pickHour() * 3_600_000 + Math.floor(random() * 3_600_000);
      if (t < dayStart) t += DAY_MS;
      times[i] = t;
    }
    times.sort();
    const lines = new Array<string>(times.length);
    let lastAt = NaN;
    let iso = '';
    for (let i = 0; i < times.length; i++) {
      const at = times[i];
      if (at !== lastAt) iso = new Date((lastAt = at)).toISOString();
      const rank = this.pickCode();
      const bot = random() < BOT_SHARE;
      const referrer = bot ? '\\N' : this.referrers[this.pickReferrer()];
      const agent = bot ? this.botFields[this.pickBot()] : this.humanFields[this.pickHuman()];
      const country = random() < 0.03 ? '\\N' : COUNTRIES[this.pickCountry()];
      let rule = '\\N';
      let arm = '\\N';
      const rules = RULE_CODES.get(rank + 1);
      if (rules && !bot && random() < 0.8) {
        const index = Math.min(rules.rules - 1, Math.floor(Math.pow(random(), 1.5) * rules.rules));
        rule = String(index);
        if (rules.arms && index === 0) arm = String(random() < 0.5 ? 0 : 1);
      }
      lines[i] =
        `${randomUUID()}\t${this.codeIds[rank]}\t${iso}\t${referrer}\t${this.visitor(rank, Math.floor(at / DAY_MS))}\t${agent}\t` +
        `${country}\t\\N\t${rule}\t${arm}\n`;
    }
    return lines.join('');
  }

  *days(fromDay: number, toDay: number): Generator<string> {
    for (let d = fromDay; d < toDay; d++) yield this.day(d);
  }
}

// ---------------------------------------------------------------------------------------------
// Seeding

interface Seed {
  events: number;
  codes: number;
  fromAt: Date;
  toAt: Date;
}

async function existingSeed(): Promise<Seed | null> {
  const exists = await withClient(
    ADMIN_URL,
    async (client) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME])).rowCount === 1,
  );
  if (!exists) return null;
  return withClient(dbUrl, async (db) => {
    if (!(await db.query(`SELECT to_regclass('bench_analytics_seed') AS t`)).rows[0].t) return null;
    const { rows } = await db.query('SELECT events, codes, from_at, to_at FROM bench_analytics_seed');
    if (rows.length !== 1) return null;
    return { events: Number(rows[0].events), codes: Number(rows[0].codes), fromAt: rows[0].from_at, toAt: rows[0].to_at };
  });
}

interface SeedFigures {
  copyEventsPerSecond: number;
  rollupEventsPerSecond: number;
}

async function seed(): Promise<SeedFigures> {
  const started = performance.now();
  await withClient(ADMIN_URL, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${DB_NAME}"`);
  });
  const applied = await migratePostgres(dbUrl);
  log(`created ${DB_NAME}, applied ${applied.length} migrations (${seconds(started)} s)`);

  const toAt = Date.now();
  const fromAt = toAt - SPAN_DAYS * DAY_MS;
  return withClient(dbUrl, async (db) => {
    await db.query(`SET maintenance_work_mem = '256MB'`);
    await db.query(`SET work_mem = '64MB'`);
    await db.query(`INSERT INTO accounts (id, created_at) VALUES ($1, $2)`, [ACCOUNT, new Date(fromAt - 30 * DAY_MS)]);
    const folders = (
      await db.query<{ id: string }>(
        `INSERT INTO folders (id, account_id, name, created_at, updated_at)
         SELECT gen_random_uuid(), $1, 'Folder ' || f, $2, $2 FROM generate_series(1, $3::int) AS f RETURNING id`,
        [ACCOUNT, new Date(fromAt - 20 * DAY_MS), FOLDERS],
      )
    ).rows.map((row) => row.id);
    const codeIds = Array.from({ length: CODES }, () => randomUUID());
    // Types and folders by a hash of the rank, not by rank bands: the busy codes are spread like the rest.
    await db.query(
      `INSERT INTO qr_codes (id, account_id, name, type, content, content_string, folder_id, is_dynamic, short_code, status, created_at, updated_at)
       SELECT c.id, $1, $2::text || ' ' || lpad(c.rank::text, 5, '0'), t.type,
         CASE t.type WHEN 'url' THEN jsonb_build_object('url', 'https://www.acme.com/p/' || c.rank)
           WHEN 'vcard' THEN jsonb_build_object('first_name', 'Ann', 'last_name', 'Rank ' || c.rank)
           WHEN 'text' THEN jsonb_build_object('text', 'Table card ' || c.rank)
           ELSE jsonb_build_object('to', 'info+' || c.rank || '@acme.com') END,
         CASE t.type WHEN 'url' THEN 'https://www.acme.com/p/' || c.rank
           WHEN 'vcard' THEN 'BEGIN:VCARD' || E'\\r\\n' || 'VERSION:3.0' || E'\\r\\n' || 'N:Rank ' || c.rank || ';Ann;;;' || E'\\r\\n'
             || 'FN:Ann Rank ' || c.rank || E'\\r\\n' || 'END:VCARD' || E'\\r\\n'
           WHEN 'text' THEN 'Table card ' || c.rank
           ELSE 'mailto:info+' || c.rank || '@acme.com' END,
         CASE WHEN c.h < 0.6 THEN ($3::uuid[])[1 + floor(c.h / 0.6 * $4)::int] END,
         true, 'bA' || lpad(to_hex(c.rank), 6, '0'), 'active', $5::timestamptz, $5::timestamptz
       FROM unnest($6::uuid[]) WITH ORDINALITY AS c0(id, rank)
       CROSS JOIN LATERAL (SELECT c0.id, c0.rank, ('x' || substr(md5(c0.rank::text), 1, 8))::bit(32)::bigint / 4294967296.0 AS h) c
       CROSS JOIN LATERAL (SELECT CASE WHEN (c.h * 7919) % 1 < 0.75 THEN 'url' WHEN (c.h * 7919) % 1 < 0.85 THEN 'vcard'
                                       WHEN (c.h * 7919) % 1 < 0.93 THEN 'text' ELSE 'email' END AS type) t`,
      [ACCOUNT, 'Bench code', folders, FOLDERS, new Date(fromAt - 10 * DAY_MS), codeIds],
    );
    log(`  ${CODES} dynamic codes in ${FOLDERS} folders (${seconds(started)} s)`);

    // A month partition per month of the span (the service creates the months ahead of now itself).
    for (let month = new Date(Date.UTC(new Date(fromAt).getUTCFullYear(), new Date(fromAt).getUTCMonth(), 1)); month.getTime() < toAt;) {
      await db.query('SELECT scan_events_ensure_month($1)', [month]);
      month = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
    }

    const generator = new ScanGenerator(codeIds, fromAt);
    const copyStarted = performance.now();
    let copied = 0;
    const CHUNK_DAYS = 30;
    for (let fromDay = 0; fromDay < SPAN_DAYS; fromDay += CHUNK_DAYS) {
      const toDay = Math.min(SPAN_DAYS, fromDay + CHUNK_DAYS);
      const copy = db.query(copyFrom(`COPY scan_events (${SCAN_EVENT_COLUMNS.join(', ')}) FROM STDIN`));
      // One day read ahead at most: a day is a few MB of rows.
      await pipeline(Readable.from(generator.days(fromDay, toDay), { highWaterMark: 1 }), copy);
      for (let d = fromDay; d < toDay; d++) copied += generator.perDay[d];
      const elapsed = (performance.now() - copyStarted) / 1000;
      log(`  COPY days ${fromDay}-${toDay - 1}: ${thousands(copied)} events, ${thousands(copied / elapsed)} events/s, peak RSS ${peakRss()}`);
    }
    const copySeconds = (performance.now() - copyStarted) / 1000;
    log(`  COPY of ${thousands(copied)} events: ${copySeconds.toFixed(1)} s, ${thousands(copied / copySeconds)} events/s`);

    // The rollups as the migration builds them for existing rows, a calendar month per call.
    const rollupStarted = performance.now();
    const months = (
      await db.query<{ from_day: string; to_day: string; n: string }>(
        `SELECT to_char(m, 'YYYY-MM-DD') AS from_day, to_char(m + interval '1 month', 'YYYY-MM-DD') AS to_day
         FROM generate_series(date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC'), $2::timestamptz AT TIME ZONE 'UTC', interval '1 month') AS m`,
        [new Date(fromAt), new Date(toAt)],
      )
    ).rows;
    for (const month of months) {
      const one = performance.now();
      await db.query(`SELECT scan_rollups_build(array_agg(id), $2::date, $3::date) FROM qr_codes WHERE account_id = $1`, [
        ACCOUNT,
        month.from_day,
        month.to_day,
      ]);
      log(`  rollups of ${month.from_day}..${month.to_day} (${seconds(one)} s)`);
    }
    await db.query(
      `INSERT INTO scan_day_visitors (qr_code_id, day, visitor_hash)
       SELECT DISTINCT qr_code_id, (scanned_at AT TIME ZONE 'UTC')::date, visitor_hash FROM scan_events
       WHERE NOT is_bot AND scanned_at >= ((now() AT TIME ZONE 'UTC')::date - 1)::timestamp AT TIME ZONE 'UTC'`,
    );
    const rollupSeconds = (performance.now() - rollupStarted) / 1000;
    log(`  rollups of ${thousands(copied)} events: ${rollupSeconds.toFixed(1)} s, ${thousands(copied / rollupSeconds)} events/s`);

    // The codes' stored counts (completed scans, bots excluded), as the scan store keeps them.
    await db.query(
      `UPDATE qr_codes q SET scans = s.scans
       FROM (SELECT qr_code_id, sum(scans) AS scans FROM scan_code_days GROUP BY 1) s WHERE q.id = s.qr_code_id`,
    );
    const vacuumStarted = performance.now();
    await db.query('VACUUM (ANALYZE) scan_events');
    await db.query('VACUUM (ANALYZE) scan_code_days, scan_code_day_values, scan_account_days, scan_account_day_values, scan_day_visitors, qr_codes');
    log(`  VACUUM ANALYZE (${seconds(vacuumStarted)} s)`);

    await db.query(
      'CREATE TABLE bench_analytics_seed (events bigint NOT NULL, codes int NOT NULL, from_at timestamptz NOT NULL, to_at timestamptz NOT NULL)',
    );
    await db.query('INSERT INTO bench_analytics_seed VALUES ($1, $2, $3, $4)', [copied, CODES, new Date(fromAt), new Date(toAt)]);
    log(`seeding took ${seconds(started)} s, peak RSS ${peakRss()}`);
    return { copyEventsPerSecond: copied / copySeconds, rollupEventsPerSecond: copied / rollupSeconds };
  });
}

async function printStorage(events: number): Promise<void> {
  await withClient(dbUrl, async (db) => {
    const { rows } = await db.query<{ name: string; bytes: string; rows: string }>(
      `SELECT 'scan_events' AS name, sum(pg_total_relation_size(relid))::bigint AS bytes,
         (SELECT sum(reltuples)::bigint FROM pg_class WHERE oid IN (SELECT relid FROM pg_partition_tree('scan_events') WHERE isleaf)) AS rows
       FROM pg_partition_tree('scan_events')
       UNION ALL
       SELECT relname, pg_total_relation_size(oid), reltuples::bigint FROM pg_class
       WHERE relname IN ('scan_code_days', 'scan_code_day_values', 'scan_account_days', 'scan_account_day_values', 'scan_day_visitors')
         AND relkind = 'r'`,
    );
    const perMillion = events / 1_000_000;
    log(`\nstorage (pg_total_relation_size: heap, indexes, TOAST) for ${thousands(events)} events`);
    log(`${'relation'.padEnd(26)}${'rows'.padStart(14)}${'total'.padStart(12)}${'per 1M scans'.padStart(14)}`);
    let rollups = 0;
    for (const row of rows) {
      const bytes = Number(row.bytes);
      if (row.name !== 'scan_events') rollups += bytes;
      log(`${row.name.padEnd(26)}${thousands(Number(row.rows)).padStart(14)}${mb(bytes).padStart(12)}${mb(bytes / perMillion).padStart(14)}`);
    }
    const eventsBytes = Number(rows.find((row) => row.name === 'scan_events')?.bytes ?? 0);
    log(`${'rollups together'.padEnd(40)}${mb(rollups).padStart(12)}${mb(rollups / perMillion).padStart(14)}`);
    log(`${'events + rollups'.padEnd(40)}${mb(eventsBytes + rollups).padStart(12)}${mb((eventsBytes + rollups) / perMillion).padStart(14)}`);
    const partitions = await db.query(`SELECT count(*) FILTER (WHERE isleaf) AS n FROM pg_partition_tree('scan_events')`);
    log(`scan_events partitions: ${partitions.rows[0].n}`);
  });
}

// ---------------------------------------------------------------------------------------------
// ClickHouse

/** The seed into ClickHouse: each month's rows read from PostgreSQL with the export's column mapping, streamed into one INSERT. */
async function exportToClickHouse(server: ClickHouseTestServer, database: string): Promise<void> {
  for (const statement of clickHouseSchema(database)) await server.query(statement);
  const started = performance.now();
  const columns =
    'account_id, qr_code_id, scanned_at, scanned_at_ms, event_id, batch_id, visitor_hash, is_bot, device, os, browser, referrer, ' +
    'referrer_host, user_agent, country, city, rule_index, arm_index';
  const partitions = await withClient(dbUrl, async (db) =>
    (await db.query<{ name: string }>(`SELECT relid::regclass::text AS name FROM pg_partition_tree('scan_events') WHERE isleaf ORDER BY 1`)).rows.map(
      (row) => row.name,
    ),
  );
  let total = 0;
  for (const partition of partitions) {
    // The batch id: one per partition (the seed came in no batches; the export's duplicate check is not used here).
    const select = `SELECT q.account_id, e.qr_code_id, to_char(e.scanned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
        (extract(epoch FROM e.scanned_at) * 1000)::bigint, e.event_id, md5('${partition}')::uuid, e.visitor_hash, e.is_bot::int,
        e.device, e.os, e.browser, e.referrer, scan_referrer_host(e.referrer), e.user_agent, e.country, e.city, e.rule_index, e.arm_index
      FROM ${partition} e JOIN qr_codes q ON q.id = e.qr_code_id`;
    await withClient(dbUrl, async (db) => {
      const source = db.query(copyTo(`COPY (${select}) TO STDOUT`));
      const query = encodeURIComponent(`INSERT INTO ${database}.scan_events (${columns}) FORMAT TabSeparated`);
      await new Promise<void>((resolve, reject) => {
        const req = request(`http://127.0.0.1:${server.httpPort}/?query=${query}`, { method: 'POST' }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`ClickHouse ${res.statusCode}: ${body.slice(0, 2000)}`))));
        });
        req.on('error', reject);
        source.on('error', reject);
        source.pipe(req);
      });
    });
    total = Number(await server.query(`SELECT count() FROM ${database}.scan_events`));
  }
  const elapsed = (performance.now() - started) / 1000;
  log(`ClickHouse: ${thousands(total)} rows exported in ${elapsed.toFixed(1)} s (${thousands(total / elapsed)} rows/s)`);
  await server.query(`OPTIMIZE TABLE ${database}.scan_events FINAL`).catch((error: Error) => log(`  OPTIMIZE: ${error.message.slice(0, 200)}`));
  const size = await server
    .query(`SELECT sum(bytes_on_disk) FROM system.parts WHERE database = '${database}' AND table = 'scan_events' AND active`)
    .catch(() => server.query(`SELECT sum(bytes) FROM system.parts WHERE database = '${database}' AND table = 'scan_events' AND active`));
  log(`ClickHouse scan_events on disk: ${mb(Number(size))} (${mb(Number(size) / (total / 1_000_000))} per 1M scans)`);
}

// ---------------------------------------------------------------------------------------------
// Load

interface Target {
  name: string;
  origin: string;
  headers: Record<string, string>;
  app: Awaited<ReturnType<typeof createApp>>;
  close(): Promise<void>;
}

async function startTarget(name: string, clickhouseUrl?: string): Promise<Target> {
  const config = loadAppConfig({
    DATABASE_URL: dbUrl,
    REDIS_URL,
    REDIS_KEY_PREFIX: REDIS_PREFIX,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    ...(clickhouseUrl ? { CLICKHOUSE_URL: clickhouseUrl } : {}),
  });
  const app = await createApp(config, { logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const created = await app.get(ApiKeysService).create(`bench ${name}`, ACCOUNT);
  return {
    name,
    app,
    origin: `http://127.0.0.1:${port}`,
    headers: { 'x-api-key': created.key },
    close: async () => {
      await app.close();
      await withClient(dbUrl, (db) => db.query(`DELETE FROM api_keys WHERE id = $1`, [created.id]));
    },
  };
}

interface Measured extends LoadResult {
  label: string;
  target: string;
  serialP50: number;
  scans: number | string;
  load: string;
}

async function load(options: Record<string, unknown>): Promise<LoadResult> {
  const job: LoadJob = { options: { connections: CONNECTIONS, timeout: 120, ...options }, warmup: 1, duration: DURATION };
  const worker = fork(join(__dirname, 'load-worker.ts'), [], { execArgv: ['-r', '@swc-node/register'] });
  return new Promise<LoadResult>((resolve, reject) => {
    worker.once('message', (message) => resolve(message as LoadResult));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`load worker exited with ${code}`)));
    worker.send(job);
  });
}

/** A scenario too slow for the load: its one warm request stands for every percentile, and no req/s is claimed. */
function serialOnly(label: string, target: string, serial: number): Omit<Measured, 'scans' | 'load'> {
  return {
    label,
    target,
    serialP50: serial,
    requests: 0,
    errors: 0,
    p50: serial,
    p95: serial,
    p99: serial,
    max: serial,
    rps: NaN,
    statuses: `one warm request (the first took over --max-serial=${MAX_SERIAL_MS} ms): no load run`,
  };
}

async function serialP50(url: string, headers: Record<string, string>): Promise<number> {
  const times: number[] = [];
  const deadline = performance.now() + 5000;
  while (times.length < 25 && (times.length < 3 || performance.now() < deadline)) {
    const one = performance.now();
    await (await fetch(url, { headers })).arrayBuffer();
    times.push(performance.now() - one);
  }
  return percentile(Float64Array.from(times).sort(), 50);
}

/** Waits until no query of an earlier scenario still runs in the bench database. */
async function drainDb(): Promise<void> {
  await withClient(dbUrl, async (db) => {
    for (let waited = 0; waited < 240; waited++) {
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
      );
      if (rows[0].n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });
}

const fmt = (value: number, width = 8) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 1 : 0) : '-').padStart(width);
const HEADER =
  `${'scenario'.padEnd(52)}${'scans'.padStart(10)}${'serial'.padStart(8)}${'p50'.padStart(8)}${'p95'.padStart(8)}${'p99'.padStart(8)}` +
  `${'max'.padStart(8)}${'req/s'.padStart(8)}${'n'.padStart(7)}${'err'.padStart(5)}  load1 statuses`;
function printRow(m: Measured): void {
  log(
    `${`${m.target}: ${m.label}`.padEnd(52)}${String(m.scans).padStart(10)}${fmt(m.serialP50)}${fmt(m.p50)}${fmt(m.p95)}${fmt(m.p99)}` +
      `${fmt(m.max)}${fmt(m.rps)}${String(m.requests).padStart(7)}${String(m.errors).padStart(5)}  ${m.load.padStart(5)} ${m.statuses}`,
  );
}

/** The analytics statements the app sends while `catching` is set (pg's Client.query, which the app's pool clients call). */
const caught: Array<{ text: string; values: unknown[] }> = [];
let catching = false;
function catchAnalyticsStatements(): void {
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const [statement, values] = args as [string | { text?: string; values?: unknown[] }, unknown[] | undefined];
    const text = typeof statement === 'string' ? statement : statement?.text;
    if (catching && text && /scan_code_days|scan_account_days/.test(text)) {
      caught.push({ text, values: (typeof statement === 'string' ? values : (statement.values ?? values)) ?? [] });
    }
    return query.apply(this, args);
  } as Client['query'];
}

/** EXPLAIN (ANALYZE, BUFFERS) of the analytics statement behind one request of each scenario, warm (run once first). */
async function explainScenarios(target: Target, scenarios: Array<[string, string]>): Promise<void> {
  log(`\nEXPLAIN (ANALYZE, BUFFERS) of the statements behind each scenario (${target.name}, warm cache)`);
  for (const [label, path] of scenarios) {
    caught.length = 0;
    catching = true;
    await (await fetch(target.origin + path, { headers: target.headers })).arrayBuffer();
    catching = false;
    if (caught.length === 0) {
      log(`-- ${label}: no analytics statement caught`);
      continue;
    }
    // Every statement of the request (an answer can take several: /analytics' top codes are counted apart).
    for (const [index, statement] of caught.entries()) {
      await withClient(dbUrl, async (db) => {
        await db.query(statement.text, statement.values);
        const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.values);
        const first = statement.text.trim().split('\n')[0].slice(0, 100);
        log(`-- ${label}, statement ${index + 1} of ${caught.length} (${first})\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}\n`);
      });
    }
  }
}

/** The ClickHouse target's export worker has measured its lag and /scans is answered by ClickHouse (the engines' counter moves). */
async function waitForClickHouseReads(target: Target, path: string): Promise<void> {
  const counter = target.app.get(MetricsService).scanAnalyticsReads;
  const clickhouseReads = async () => (await counter.get()).values.find((value) => value.labels.engine === 'clickhouse')?.value ?? 0;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (target.app.get(ClickHouseStatus).readiness() === 'ready') {
      const before = await clickhouseReads();
      await (await fetch(target.origin + path, { headers: target.headers })).arrayBuffer();
      if ((await clickhouseReads()) > before) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the ClickHouse target does not read ClickHouse (readiness ${target.app.get(ClickHouseStatus).readiness()})`);
}

async function runLoad(targets: Target[]): Promise<Measured[]> {
  const { top, tail } = await withClient(dbUrl, async (db) => {
    const { rows } = await db.query<{ id: string; name: string; scans: string }>(
      `SELECT id, name, scans FROM qr_codes WHERE account_id = $1 AND name IN ($2, $3)`,
      [ACCOUNT, codeName(1), codeName(CODES)],
    );
    const byName = new Map(rows.map((row) => [row.name, row]));
    return { top: byName.get(codeName(1))!, tail: byName.get(codeName(CODES))! };
  });
  const now = Date.now();
  const window = (days: number) => `from=${new Date(now - days * DAY_MS).toISOString()}&to=${new Date(now).toISOString()}&interval=day`;
  const scenarios: Array<[string, string]> = [
    [`/scans 1M code (${thousands(Number(top.scans))} scans), 365 d`, `/api/v1/qrcodes/${top.id}/scans?${window(365)}`],
    [`/scans tail code (${thousands(Number(tail.scans))} scans), 365 d`, `/api/v1/qrcodes/${tail.id}/scans?${window(365)}`],
    ['/analytics account, 365 d', `/api/v1/analytics?${window(365)}`],
    ['/analytics account, 30 d', `/api/v1/analytics?${window(30)}`],
    ['/scans 1M code, 365 d, tz=Europe/Berlin (slower)', `/api/v1/qrcodes/${top.id}/scans?${window(365)}&tz=Europe%2FBerlin`],
  ];
  if (EXPLAIN)
    await explainScenarios(
      targets[0],
      scenarios.filter(([label]) => ONLY.test(label)),
    );
  log(
    `\nautocannon ${CONNECTIONS} connections, ${DURATION} s per scenario after a 1 s warm-up; targets: ` +
      targets.map((target) => `${target.name} = app on ${target.origin}`).join(', '),
  );
  log('latencies in ms; "serial" = p50 of single requests one at a time; scans = totals.scans of the answer; load1 = load average at the start');
  log(HEADER);
  const measured: Measured[] = [];
  for (const [label, path] of scenarios.filter(([label]) => ONLY.test(label))) {
    const answers: string[] = [];
    for (const target of targets) {
      await drainDb();
      const firstStarted = performance.now();
      const first = await fetch(target.origin + path, { headers: target.headers });
      const body = (await first.json()) as { totals?: { scans: number; unique_visitors: number; bot_scans: number } };
      const firstMs = performance.now() - firstStarted;
      if (first.status !== 200) {
        log(`${target.name}: ${label}: answered ${first.status} ${JSON.stringify(body).slice(0, 300)}: skipped`);
        continue;
      }
      answers.push(JSON.stringify(body.totals));
      const loadAtStart = loadavg()[0].toFixed(1);
      if (firstMs > MAX_SERIAL_MS) {
        // One more, warm: the figure of the scenario.
        const again = performance.now();
        await (await fetch(target.origin + path, { headers: target.headers })).arrayBuffer();
        const serial = performance.now() - again;
        const m: Measured = { ...serialOnly(label, target.name, serial), scans: body.totals?.scans ?? '-', load: loadAtStart };
        measured.push(m);
        printRow(m);
        continue;
      }
      const serial = await serialP50(target.origin + path, target.headers);
      const result = await load({ url: target.origin + path, headers: target.headers });
      const m: Measured = { label, target: target.name, ...result, serialP50: serial, scans: body.totals?.scans ?? '-', load: loadAtStart };
      measured.push(m);
      printRow(m);
    }
    if (answers.length > 1 && new Set(answers).size > 1) log(`  totals differ between the targets: ${answers.join(' / ')}`);
  }
  return measured;
}

// ---------------------------------------------------------------------------------------------
async function main(): Promise<void> {
  log(
    `bench/analytics: ${DB_NAME} on ${new URL(ADMIN_URL).host}, ${thousands(EVENTS)} events over ${SPAN_DAYS} days, ${thousands(CODES)} codes, ` +
      `Redis ${REDIS_URL} (prefix ${REDIS_PREFIX}), ClickHouse ${CLICKHOUSE ? 'on' : 'off'}, load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}`,
  );
  let found = RESEED ? null : await existingSeed();
  if (found && (found.events !== EVENTS || found.codes !== CODES)) {
    log(`${DB_NAME} holds a seed of ${thousands(found.events)} events and ${found.codes} codes: seeding again`);
    found = null;
  }
  if (found) {
    log(`reusing the seed in ${DB_NAME} (${found.fromAt.toISOString()} .. ${found.toAt.toISOString()}); --reseed to seed again`);
    const applied = await migratePostgres(dbUrl);
    if (applied.length) log(`applied ${applied.join(', ')}`);
  } else {
    const figures = await seed();
    log(`seeding rate: COPY ${thousands(figures.copyEventsPerSecond)} events/s, rollup build ${thousands(figures.rollupEventsPerSecond)} events/s`);
  }
  await printStorage(EVENTS);
  if (SKIP_LOAD) return;

  if (EXPLAIN) catchAnalyticsStatements();
  let clickhouse: ClickHouseTestServer | undefined;
  const targets: Target[] = [];
  try {
    targets.push(await startTarget('postgres'));
    if (CLICKHOUSE) {
      clickhouse = await ClickHouseTestServer.start();
      await exportToClickHouse(clickhouse, 'bench');
      const target = await startTarget('clickhouse', clickhouse.url('bench'));
      targets.push(target);
      const top = await withClient(dbUrl, async (db) => (await db.query(`SELECT id FROM qr_codes WHERE name = $1`, [codeName(1)])).rows[0].id);
      await waitForClickHouseReads(target, `/api/v1/qrcodes/${top}/scans`);
      log('the clickhouse target reads ClickHouse');
    }
    const measured = await runLoad(targets);
    log('\ntargets (p95 < 50 ms on PostgreSQL for the four main queries):');
    for (const m of measured.filter((row) => !row.label.includes('tz='))) {
      log(`  ${m.target}: ${m.label}: p95 ${m.p95.toFixed(1)} ms ${m.p95 < 50 ? 'MET' : 'MISSED'}`);
    }
  } finally {
    for (const target of targets) await target.close();
    await clickhouse?.close();
  }
  log(`\npeak RSS of the bench process (seed generator and the apps in process; autocannon runs apart): ${peakRss()}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
