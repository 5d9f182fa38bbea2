/**
 * Does batch work in a worker process leave the redirect alone? (issue 37). The built service
 * (`node dist/main.js`) on PostgreSQL and Redis, in two topologies: ROLE=api + ROLE=worker (two
 * processes) and ROLE=all (one). Redirects at a fixed rate (autocannon's overallRate, in a forked
 * process: bench/load-worker.ts) for an idle phase, then for a loaded phase during which the jobs
 * run: a ZIP of 1,000 PNGs at 1000 px and a CSV of the list of 1M codes (an export of format csv,
 * the codes seeded with SQL). After the phase it waits for both jobs and reports how long the CSV
 * took and the peak RSS of the process that ran the jobs (VmRSS sampled every 250 ms, and VmHWM).
 * Per phase: the redirect's p50/p99, and the longest event-loop pause of the process that answers
 * (prom-client's nodejs_eventloop_lag_max_seconds on /metrics: perf_hooks.monitorEventLoopDelay at
 * 10 ms resolution, reset at each scrape; a pause is the interval minus those 10 ms), and its major
 * collections (nodejs_gc_duration_seconds{kind="major"}).
 *
 *   npm run build && node -r @swc-node/register bench/worker-isolation.ts
 *
 * Environment: BENCH_PG_URL (server, default postgresql://postgres@127.0.0.1:5432), BENCH_DB
 * (default qr_bench_roles; dropped), BENCH_REDIS_URL, BENCH_RATE (default 2000 req/s),
 * BENCH_SECONDS (per phase, default 20), BENCH_TOPOLOGIES (default "split,all"), BENCH_WORKER_NICE (the
 * worker's nice value, default 0: as an operator gives a worker less CPU than the api instances),
 * BENCH_CSV_CODES (codes in the CSV export, default 1000000), BENCH_JOB_TIMEOUT_S (wait for the jobs, default 1200).
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg, setPriority } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort, ServiceProcess } from '../test/support/service-process';
import { freshMigratedDatabase } from '../test/support/test-databases';
import type { LoadJob, LoadResult } from './load-worker';

const SERVER = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432';
const DB = process.env.BENCH_DB ?? 'qr_bench_roles';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const RATE = Number(process.env.BENCH_RATE ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WORKER_NICE = Number(process.env.BENCH_WORKER_NICE ?? 0);
const SPLIT_LABEL = `api (ROLE=api + worker${WORKER_NICE ? ` at nice ${WORKER_NICE}` : ''})`;
const TOPOLOGIES = (process.env.BENCH_TOPOLOGIES ?? 'split,all').split(',');
const CODES = 1000;
const CSV_CODES = Number(process.env.BENCH_CSV_CODES ?? 1_000_000);
const JOB_TIMEOUT_S = Number(process.env.BENCH_JOB_TIMEOUT_S ?? 1200);
const SEED_BATCH = 250_000;
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
if (!/^qr_bench[a-z0-9_]*$/.test(DB)) throw new Error('BENCH_DB must match ^qr_bench[a-z0-9_]*$ (the bench drops it)');

interface Phase {
  load: LoadResult;
  /** Longest event-loop interval over the phase, minus the monitor's 10 ms resolution (ms). */
  pauseMs: number;
  majorGcs: number;
  majorGcMs: number;
  loadAverage: string;
}

/** One scrape of /metrics: the event-loop maximum (resets it) and the major collections so far. */
async function scrape(origin: string): Promise<{ lagMaxMs: number; majorCount: number; majorSeconds: number }> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
  return {
    lagMaxMs: value(/^nodejs_eventloop_lag_max_seconds (\S+)$/m) * 1000,
    majorCount: value(/^nodejs_gc_duration_seconds_count\{kind="major"\} (\S+)$/m) || 0,
    majorSeconds: value(/^nodejs_gc_duration_seconds_sum\{kind="major"\} (\S+)$/m) || 0,
  };
}

async function redirects(url: string, seconds: number): Promise<LoadResult> {
  const job: LoadJob = {
    options: { url, connections: 20, overallRate: RATE, headers: { 'user-agent': PHONE }, timeout: 10 },
    warmup: 0,
    duration: seconds,
  };
  const worker = fork(join(__dirname, 'load-worker.ts'), [], { execArgv: ['-r', '@swc-node/register'] });
  return new Promise<LoadResult>((resolve, reject) => {
    worker.once('message', (message) => resolve(message as LoadResult));
    worker.once('exit', (code) => reject(new Error(`load worker exited with ${code}`)));
    worker.send(job);
  });
}

/** Redirects for `seconds` at RATE, with the answering process's event loop and collections over the same time. */
async function phase(origin: string, url: string, seconds: number): Promise<Phase> {
  const loadAverage = loadavg()[0].toFixed(1);
  const before = await scrape(origin);
  const load = await redirects(url, seconds);
  const after = await scrape(origin);
  return {
    load,
    pauseMs: Math.max(0, after.lagMaxMs - 10),
    majorGcs: after.majorCount - before.majorCount,
    majorGcMs: (after.majorSeconds - before.majorSeconds) * 1000,
    loadAverage,
  };
}

/** The CSV's codes, straight into the tables a batch at a time: a third dynamic (with a short link), one second apart. */
async function seedCsvCodes(pg: Client, accountId: string): Promise<void> {
  for (let from = 1; from <= CSV_CODES; from += SEED_BATCH) {
    await pg.query(
      `INSERT INTO qr_codes (id, account_id, name, type, content, content_string, style, is_dynamic, short_code, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'Listed ' || n, 'url', jsonb_build_object('url', 'https://example.com/listed/' || n),
              'https://example.com/listed/' || n, '{}'::jsonb, n % 3 = 0, CASE WHEN n % 3 = 0 THEN 'bl' || n END,
              now() - n * interval '1 second', now()
       FROM generate_series($2::int, $3::int) AS n`,
      [accountId, from, Math.min(CSV_CODES, from + SEED_BATCH - 1)],
    );
  }
}

/** An account's 1,000 codes for the ZIP, CSV_CODES for the CSV and one dynamic code to redirect, straight into the tables. */
async function seed(databaseUrl: string): Promise<{ ids: string[]; shortCode: string }> {
  const pg = new Client({ connectionString: databaseUrl });
  await pg.connect();
  try {
    const { account_id: accountId } = (await pg.query<{ account_id: string }>('SELECT account_id FROM api_keys LIMIT 1')).rows[0];
    const inserted = await pg.query<{ id: string }>(
      `INSERT INTO qr_codes (id, account_id, name, type, content, content_string, style, updated_at)
       SELECT gen_random_uuid(), $1, 'Poster ' || n, 'url', jsonb_build_object('url', 'https://example.com/poster/' || n),
              'https://example.com/poster/' || n, '{}'::jsonb, now()
       FROM generate_series(1, ${CODES}) AS n RETURNING id`,
      [accountId],
    );
    await pg.query(
      `INSERT INTO qr_codes (id, account_id, name, type, content, content_string, style, updated_at, is_dynamic, short_code)
       VALUES (gen_random_uuid(), $1, 'Campaign', 'url', '{"url":"https://example.com/campaign"}', 'https://example.com/campaign', '{}', now(), true, 'benchrole1')`,
      [accountId],
    );
    const started = Date.now();
    await seedCsvCodes(pg, accountId);
    await pg.query('ANALYZE qr_codes');
    console.error(`seeded ${CSV_CODES} codes in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return { ids: inserted.rows.map((row) => row.id), shortCode: 'benchrole1' };
  } finally {
    await pg.end();
  }
}

async function startJobs(origin: string, key: string, ids: string[]): Promise<string[]> {
  const post = (body: object) =>
    fetch(`${origin}/api/v1/exports`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const zip = await post({ format: 'png', size: 1000, ids });
  const csv = await post({ format: 'csv' });
  if (zip.status !== 202 || csv.status !== 202)
    throw new Error(`jobs not accepted: ${zip.status} ${await zip.text()} ${csv.status} ${await csv.text()}`);
  return [`/api/v1/exports/${((await zip.json()) as { id: string }).id}`, `/api/v1/exports/${((await csv.json()) as { id: string }).id}`];
}

interface JobState {
  status: string;
  done: number;
  total: number;
  bytes: number | null;
  created_at: string;
  finished_at: string | null;
}

async function jobStates(origin: string, key: string, paths: string[]): Promise<JobState[]> {
  return Promise.all(paths.map(async (path) => (await (await fetch(`${origin}${path}`, { headers: { 'x-api-key': key } })).json()) as JobState));
}

const describeStates = (states: JobState[]) =>
  states.map((state, i) => `${i ? 'csv' : 'zip'} ${state.status} ${state.done}/${state.total}`).join(', ');

/** The process's resident set (VmRSS) or its peak so far (VmHWM), in MB, from /proc. */
function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** Samples the RSS of `pid` every 250 ms until stopped; answers the largest sample. */
function rssSampler(pid: number): { stop: () => number } {
  let peak = memoryMb(pid, 'VmRSS');
  const timer = setInterval(() => (peak = Math.max(peak, memoryMb(pid, 'VmRSS'))), 250);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

/** Waits for both jobs to end; reports the CSV's duration and size and the job process's memory. */
async function finishJobs(origin: string, key: string, paths: string[], pid: number, idleRss: number, sampler: { stop: () => number }) {
  const deadline = Date.now() + JOB_TIMEOUT_S * 1000;
  let states = await jobStates(origin, key, paths);
  while (states.some((state) => state.status === 'queued' || state.status === 'running') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    states = await jobStates(origin, key, paths);
  }
  const peak = sampler.stop();
  const csv = states[1];
  const seconds = csv.finished_at ? (Date.parse(csv.finished_at) - Date.parse(csv.created_at)) / 1000 : NaN;
  console.log(
    `|   | jobs: ${describeStates(states)}; CSV ${(Number(csv.bytes) / 1048576).toFixed(0)} MiB in ${seconds.toFixed(0)} s ` +
      `(${(csv.done / seconds).toFixed(0)} codes/s, alongside the ZIP); job process RSS idle ${idleRss.toFixed(0)} MB, ` +
      `peak ${peak.toFixed(0)} MB sampled, VmHWM ${memoryMb(pid, 'VmHWM').toFixed(0)} MB; load avg ${loadavg()[0].toFixed(1)} | | | | | | | | |`,
  );
}

async function topology(name: string): Promise<void> {
  const databaseUrl = await freshMigratedDatabase(SERVER, DB);
  const base = {
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_KEY_PREFIX: `bench-roles-${process.pid}:`,
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'warn',
  };
  const front = await ServiceProcess.start(
    { ...base, PORT: String(await freePort()), ROLE: name === 'split' ? 'api' : 'all', BOOTSTRAP_KEY: '1' },
    180_000,
  );
  const worker = name === 'split' ? await ServiceProcess.start({ ...base, PORT: String(await freePort()), ROLE: 'worker' }, 180_000) : null;
  if (worker && WORKER_NICE) setPriority(worker.pid, WORKER_NICE);
  try {
    for (let i = 0; i < 50 && !front.firstKey; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const key = front.firstKey!;
    const { ids, shortCode } = await seed(databaseUrl);
    const url = `${front.origin}/r/${shortCode}`;
    await redirects(url, 3);
    const idle = await phase(front.origin, url, SECONDS);
    const jobPid = (worker ?? front).pid;
    const idleRss = memoryMb(jobPid, 'VmRSS');
    const sampler = rssSampler(jobPid);
    const jobs = await startJobs(front.origin, key, ids);
    const loaded = await phase(front.origin, url, SECONDS);
    report(name, idle, loaded, describeStates(await jobStates(front.origin, key, jobs)));
    await finishJobs(front.origin, key, jobs, jobPid, idleRss, sampler);
  } finally {
    await worker?.kill();
    await front.kill();
  }
}

function report(name: string, idle: Phase, loaded: Phase, states: string): void {
  const line = (label: string, p: Phase) =>
    `| ${name === 'split' ? SPLIT_LABEL : 'ROLE=all'} | ${label} | ${p.load.rps.toFixed(0)} | ${p.load.p50.toFixed(2)} | ` +
    `${p.load.p99.toFixed(2)} | ${p.load.max.toFixed(1)} | ${p.pauseMs.toFixed(1)} | ${p.majorGcs} (${p.majorGcMs.toFixed(0)} ms) | ` +
    `${p.load.errors} | ${p.loadAverage} |`;
  console.log(line('idle', idle));
  console.log(line('jobs running', loaded));
  console.log(
    `|   | p99 loaded - idle: ${(loaded.load.p99 - idle.load.p99).toFixed(2)} ms; jobs at the end of the phase: ${states} | | | | | | | | |`,
  );
}

async function main(): Promise<void> {
  console.log(
    `redirects at ${RATE} req/s, ${SECONDS} s per phase; ZIP of ${CODES} PNGs at 1000 px + CSV export of ${CSV_CODES} codes in the loaded phase`,
  );
  console.log('| process answering | phase | req/s | p50 ms | p99 ms | max ms | longest loop pause ms | major GCs | errors | load avg |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const name of TOPOLOGIES) await topology(name);
}

void main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(error);
    process.exit(1);
  },
);
