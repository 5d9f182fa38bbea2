/**
 * Create throughput: POST /api/v1/qrcodes (a url code, and a dynamic one in turn) against the real
 * app on a fresh database, by autocannon in a forked process (bench/load-worker.ts). Prints
 * requests per second, latency and CPU time per request (the app, Postgres, Redis) per round, and
 * the median round. CPU per request is the steadier figure on a shared machine.
 *
 *   node -r @swc-node/register bench/create.ts [--rounds=3] [--duration=8] [--connections=10]
 *
 * To compare two builds (the audit log's cost: issue 26), run this file from each one's worktree in
 * turn (shared machines drift by tens of percent within minutes): bench/README.md.
 * Environment: BENCH_PG_URL (admin connection), BENCH_DB (default qr_bench_create; must start with
 * qr_bench: it is dropped), BENCH_REDIS_URL.
 */
import { fork } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { createApp } from '../src/app.factory';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { loadAppConfig } from '../src/config/app-config';
import { migratePostgres } from '../src/infra/database/database-connection';
import { cpuPerRequest, sampleCpu } from './cpu-accounting';
import type { LoadJob, LoadResult } from './load-worker';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const found = argv.find((arg) => arg.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const ROUNDS = option('rounds', 3);
const DURATION = option('duration', 8);
const CONNECTIONS = option('connections', 10);
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_DB ?? 'qr_bench_create';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

if (!/^qr_bench[a-z0-9_]*$/.test(DB_NAME)) throw new Error('BENCH_DB must match ^qr_bench[a-z0-9_]*$ (the bench drops it)');

async function admin(statement: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function load(origin: string, headers: Record<string, string>, duration: number): Promise<LoadResult> {
  const body = (extra: object) => JSON.stringify({ type: 'url', name: 'bench create', content: { url: 'https://example.com/menu' }, ...extra });
  const post = (extra: object) => ({
    method: 'POST',
    path: '/api/v1/qrcodes',
    headers: { ...headers, 'content-type': 'application/json' },
    body: body(extra),
  });
  const job: LoadJob = {
    // Each connection sends the sequence in turn: a static code, then a dynamic one (a short code).
    options: { url: origin, connections: CONNECTIONS, timeout: 60, requests: [post({}), post({ is_dynamic: true })] },
    warmup: 0,
    duration,
  };
  const worker = fork(join(__dirname, 'load-worker.ts'), [], { execArgv: ['-r', '@swc-node/register'] });
  return new Promise<LoadResult>((resolve, reject) => {
    worker.once('message', (message) => resolve(message as LoadResult));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`load worker exited with ${code}`)));
    worker.send(job);
  });
}

async function main(): Promise<void> {
  await admin(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${DB_NAME}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  await migratePostgres(url.toString());
  const config = loadAppConfig({
    DATABASE_URL: url.toString(),
    REDIS_URL,
    REDIS_KEY_PREFIX: `qr-bench-create:${process.pid}:`,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    ROLE: 'api',
  });
  const app = await createApp(config, { logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const { key } = await app.get(ApiKeysService).create('bench');
  const rates: number[] = [];
  const origin = `http://127.0.0.1:${port}`;
  try {
    await load(origin, { 'x-api-key': key }, 1);
    for (let round = 1; round <= ROUNDS; round++) {
      const before = sampleCpu();
      const result = await load(origin, { 'x-api-key': key }, DURATION);
      const cpu = cpuPerRequest(before, sampleCpu(), result.requests);
      rates.push(result.rps);
      console.log(
        `round ${round}: ${result.rps.toFixed(0)} creates/s, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, ` +
          `${result.errors} errors (${result.statuses})\n         ${cpu}`,
      );
    }
  } finally {
    await app.close();
    await admin(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
  }
  const median = [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)];
  console.log(`median: ${median.toFixed(0)} creates/s (${CONNECTIONS} connections, ${DURATION} s rounds)`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
