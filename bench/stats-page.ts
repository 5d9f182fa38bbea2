/**
 * The public stats page (issue 42): GET /s/<token> of a code with ~1M scans over the last year,
 * server-rendered charts included, at 10 connections, against the built service (dist/, started as
 * the image starts it: test/support/built-service.ts) in a process of its own, with autocannon in
 * another (bench/load-worker.ts). Target: p95 < 100 ms for the year's page.
 *
 *   npm run build && node -r @swc-node/register bench/stats-page.ts [--duration=10] [--connections=10]
 *
 * The seed is bench/analytics.ts's, run first if the database does not hold it:
 * BENCH_EVENTS (default 5,000,000) scans over 730 days across BENCH_CODES (default 10) codes, Zipf:
 * the first code takes 1/H(10) = 34 % of them, and the second year holds 60 % of the volume, so
 * ~1.0M of its scans fall in the last 365 days (the bench prints the exact count).
 *
 * Environment: BENCH_PG_URL (admin connection, default postgresql://postgres@127.0.0.1:5432/postgres),
 * BENCH_DB (default qr_bench_stats_page), BENCH_EVENTS, BENCH_CODES, BENCH_REDIS_URL (default
 * redis://127.0.0.1:6379).
 */
import { spawnSync } from 'node:child_process';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { runCli, startBuiltService } from '../test/support/built-service';
import type { LoadJob, LoadResult } from './load-worker';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const found = argv.find((arg) => arg.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const DURATION = option('duration', 10);
const CONNECTIONS = option('connections', 10);
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_DB ?? 'qr_bench_stats_page';
const EVENTS = process.env.BENCH_EVENTS ?? '5000000';
const CODES = process.env.BENCH_CODES ?? '10';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** bench/analytics.ts's account and its most scanned code. */
const ACCOUNT = '0b0e5c1a-0000-4000-8000-0000000a0001';
const TOP_CODE = 'Bench code 00001';
const TARGET_P95_MS = 100;

const log = (line = '') => process.stdout.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
const dbUrl = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
})();

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: dbUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** bench/analytics.ts seeds (or finds its seed in) BENCH_DB, and stops before its own load. */
function ensureSeed(): void {
  const seeded = spawnSync(process.execPath, ['-r', '@swc-node/register', join(__dirname, 'analytics.ts'), '--skip-load'], {
    env: { ...process.env, BENCH_DB: DB_NAME, BENCH_EVENTS: EVENTS, BENCH_CODES: CODES, BENCH_PG_URL: ADMIN_URL },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (seeded.status !== 0) throw new Error(`bench/analytics.ts --skip-load failed (${seeded.status})`);
}

function runLoad(url: string): Promise<LoadResult> {
  const job: LoadJob = { options: { url, connections: CONNECTIONS, timeout: 60 }, warmup: 2, duration: DURATION };
  const worker = fork(join(__dirname, 'load-worker.ts'), [], { execArgv: ['-r', '@swc-node/register'] });
  return new Promise<LoadResult>((resolve, reject) => {
    worker.once('message', (message) => resolve(message as LoadResult));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`load worker exited with ${code}`)));
    worker.send(job);
  });
}

async function main(): Promise<void> {
  log(`bench/stats-page: ${DB_NAME}, seed of ${EVENTS} events over ${CODES} codes; load average ${load()}`);
  ensureSeed();
  const [code] = await query<{ id: string }>('SELECT id FROM qr_codes WHERE account_id = $1 AND name = $2', [ACCOUNT, TOP_CODE]);
  const [year] = await query<{ scans: string; bots: string }>(
    `SELECT sum(scans) AS scans, sum(bot_scans) AS bots FROM scan_code_days WHERE qr_code_id = $1 AND day > current_date - 365`,
    [code.id],
  );
  log(
    `code ${code.id}: ${Number(year.scans).toLocaleString('en-US')} human scans ` +
      `(and ${Number(year.bots).toLocaleString('en-US')} bots) in the last 365 days`,
  );

  const dataDir = mkdtempSync(join(tmpdir(), 'qr-bench-stats-'));
  const env = {
    DATABASE_URL: dbUrl,
    REDIS_URL,
    REDIS_KEY_PREFIX: 'qr-bench-stats-page:',
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'warn',
  };
  const created = await runCli(['keys', 'create', '--name', 'stats bench', '--account', ACCOUNT], env);
  const key = /qr_live_[A-Za-z0-9_-]+/.exec(created.stdout)?.[0];
  if (!key) throw new Error(`keys create failed: ${created.stdout}${created.stderr}`);
  const service = await startBuiltService(env);
  try {
    const made = await fetch(`${service.url}/api/v1/qrcodes/${code.id}/share-links`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: '{}',
    });
    if (made.status !== 201) throw new Error(`share link: ${made.status} ${await made.text()}`);
    const path = new URL(((await made.json()) as { url: string }).url).pathname;
    const scenarios = [
      ['the year by day (365 points, every chart)', `${path}?days=365`],
      ['the year by day in America/New_York', `${path}?days=365&tz=America/New_York`],
      ['the year by week', `${path}?days=365&interval=week`],
      ['30 days by hour (720 points)', `${path}?days=30&interval=hour`],
      ['the year as JSON', `${path}.json?days=365`],
    ] as const;
    const results: Array<{ label: string; serial: number; result: LoadResult }> = [];
    for (const [label, url] of scenarios) {
      const started = performance.now();
      const one = await fetch(`${service.url}${url}`);
      const serial = performance.now() - started;
      const body = await one.text();
      if (one.status !== 200) {
        log(`${label}: first request ${one.status} after ${serial.toFixed(0)} ms (no load run)`);
        continue;
      }
      const before = load();
      const result = await runLoad(`${service.url}${url}`);
      results.push({ label, serial, result });
      log(
        `${label}: ${(body.length / 1024).toFixed(0)} KB; first request ${serial.toFixed(0)} ms; ${CONNECTIONS} connections, ${DURATION} s: ` +
          `${result.requests} requests, ${result.rps.toFixed(1)} req/s, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, ` +
          `p99 ${result.p99.toFixed(1)} ms, max ${result.max.toFixed(0)} ms, ${result.statuses}${result.errors ? `, ${result.errors} errors` : ''} ` +
          `(load average before ${before}, after ${load()})`,
      );
    }
    // Where an uncached page's time goes: the analytics statement alone, for the same window (one at a time, warm).
    const to = new Date();
    const window = new URLSearchParams({ from: new Date(to.getTime() - 365 * 86_400_000).toISOString(), to: to.toISOString(), interval: 'day' });
    const serials: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const res = await fetch(`${service.url}/api/v1/qrcodes/${code.id}/scans?${window.toString()}`, { headers: { 'x-api-key': key } });
      await res.text();
      serials.push(performance.now() - started);
    }
    log(`/scans of the same year, one at a time: ${serials.map((ms) => ms.toFixed(0)).join(', ')} ms (load average ${load()})`);
    const year = results.find((one) => one.label === scenarios[0][0])?.result.p95 ?? Number.NaN;
    log(
      `\ntarget: p95 of the year's page < ${TARGET_P95_MS} ms at ${CONNECTIONS} connections: ` +
        `${year.toFixed(1)} ms ${year < TARGET_P95_MS ? 'MET' : 'MISSED'}`,
    );
  } finally {
    service.process.kill('SIGTERM');
    await service.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
