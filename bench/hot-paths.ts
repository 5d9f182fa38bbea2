/**
 * Redirect and image-cache-hit throughput against bare Fastify baselines started in the same run
 * (so the figures are ratios, robust to a noisy machine).
 *
 *   node -r @swc-node/register bench/hot-paths.ts
 *
 * Env: BENCH_PG (server URL, default postgresql://postgres@127.0.0.1:5432), REDIS_URL (default
 * redis://127.0.0.1:6379; set REDIS_URL= to bench the in-process mode), DURATION (s per load,
 * default 6), ROUNDS (default 3), CONNECTIONS (default 50), ONLY_REDIRECT=1 (skip the image loads),
 * SCAN_UA (the scanners' user agent, an iPhone's by default; SCAN_UA= sends none).
 * The load generator (autocannon) runs as a separate process, started directly (npx stayed alive
 * beside it and took 15-20 % of a core from whatever it measured). After one unmeasured warm-up
 * load of each server (3 s), each round measures every
 * baseline right before its target, and the summary gives the median of the rounds' ratios: on a
 * shared 2-core machine single runs swing by a third. Each load also prints the CPU time per
 * request of the servers, the load generator, PostgreSQL and Redis, and how busy the servers'
 * event loop was: where the time goes.
 */
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { Client } from 'pg';
import { createApp } from '../src/app.factory';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { loadAppConfig } from '../src/config/app-config';
import { migratePostgres } from '../src/infra/database/database-connection';
import { PrismaService } from '../src/infra/database/prisma.service';
import { ScanBuffer } from '../src/redirect/scan-buffer.service';
import { cpuPerRequest, sampleCpu } from './cpu-accounting';

const PG = process.env.BENCH_PG ?? 'postgresql://postgres@127.0.0.1:5432';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DURATION = Number(process.env.DURATION ?? 6);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const DB = 'qr_bench_hot';
/** Scans come from phones: the user agent is hashed, classified and stored with every scan (SCAN_UA= sends none, as before 2026-11-22's fourth session). */
const SCAN_UA = process.env.SCAN_UA ?? 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const SCANNER: Record<string, string> = SCAN_UA ? { 'user-agent': SCAN_UA } : {};

interface Result { rps: number; p50: number; p99: number; non2xx: number; errors: number; completed: number; cpu: string }

const run = promisify(execFile);

/** autocannon in its own process: the servers under test keep this process's event loop to themselves. */
async function load(url: string, headers: Record<string, string> = {}, seconds = DURATION): Promise<Result> {
  const args = [require.resolve('autocannon/autocannon.js'), '-c', String(CONNECTIONS), '-d', String(seconds), '-j', '--renderStatusCodes'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  const before = sampleCpu();
  const loopBefore = performance.eventLoopUtilization();
  const { stdout } = await run(process.execPath, [...args, url], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const after = sampleCpu();
  const loop = performance.eventLoopUtilization(loopBefore);
  const out = JSON.parse(stdout);
  return {
    rps: Math.round(out.requests.average), p50: out.latency.p50, p99: out.latency.p99, non2xx: out.non2xx, errors: out.errors,
    completed: out['3xx'] ?? 0, cpu: `${cpuPerRequest(before, after, out.requests.total)}; servers' event loop ${(100 * loop.utilization).toFixed(0)}% busy`,
  };
}

const row = (label: string, r: Result, baseline?: Result) =>
  `${label.padEnd(44)} ${String(r.rps).padStart(7)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms` +
  (baseline ? `  = ${((100 * r.rps) / baseline.rps).toFixed(0)}% of baseline` : '') + (r.errors ? `  errors ${r.errors}` : '') + `\n${''.padEnd(46)}${r.cpu}`;

async function main(): Promise<void> {
  const admin = new Client({ connectionString: `${PG}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB}`);
  await admin.end();
  await migratePostgres(`${PG}/${DB}`);

  const bare = Fastify();
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">' + 'x'.repeat(5000) + '</svg>');
  bare.get('/302', (_req, reply) => reply.redirect('https://example.com/target', 302));
  bare.get('/json', () => ({ hello: 'world' }));
  bare.get('/svg', (_req, reply) => reply.type('image/svg+xml').send(svg));
  await bare.listen({ port: 3901, host: '127.0.0.1' });

  const config = loadAppConfig({
    PORT: '3902', DATABASE_URL: `${PG}/${DB}`, REDIS_URL: REDIS_URL || undefined, LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000', REDIS_KEY_PREFIX: `bench:${process.pid}:`,
  });
  const app = await createApp(config, { logger: false });
  await app.listen({ port: 3902, host: '127.0.0.1' });
  const { key } = await app.get(ApiKeysService).create('bench');
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const post = async (body: unknown): Promise<Record<string, any>> => ((await fetch('http://127.0.0.1:3902/api/v1/qrcodes', { method: 'POST', headers, body: JSON.stringify(body) })).json()) as Record<string, any>;
  const dynamic = await post({ type: 'url', content: { url: 'https://example.com/target' }, is_dynamic: true });
  const styled = await post({ type: 'url', content: { url: 'https://example.com/poster' }, style: { dotsOptions: { type: 'rounded', color: '#1a237e' } } });
  await fetch(`http://127.0.0.1:3902/api/v1/qrcodes/${styled.id}/image`, { headers }); // warm the image cache

  console.log(`hot paths: ${CONNECTIONS} connections, ${DURATION} s per load, ${ROUNDS} rounds, Redis ${REDIS_URL ? 'on' : 'off'}, scans ${SCAN_UA ? 'with' : 'without'} a user agent, node ${process.version}`);
  const scansBefore = Number((await app.get(PrismaService).qrCode.findUniqueOrThrow({ where: { id: dynamic.id } })).scans);
  let redirects = 0;
  // One unmeasured load of each server first: the rounds compare JIT-compiled code, not warm-up.
  const warmUp = Math.min(3, DURATION);
  await load('http://127.0.0.1:3901/302', SCANNER, warmUp);
  redirects += (await load(`http://127.0.0.1:3902/r/${dynamic.short_code}`, SCANNER, warmUp)).completed;
  if (!process.env.ONLY_REDIRECT) {
    await load('http://127.0.0.1:3901/json', {}, warmUp);
    await load(`http://127.0.0.1:3902/api/v1/qrcodes/${styled.id}/image`, { 'x-api-key': key }, warmUp);
  }
  const ratios = { redirect: [] as number[], image: [] as number[] };
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round}`);
    const base302 = await load('http://127.0.0.1:3901/302', SCANNER);
    console.log(row('  bare Fastify 302 (baseline)', base302));
    const redirect = await load(`http://127.0.0.1:3902/r/${dynamic.short_code}`, SCANNER);
    console.log(row('  GET /r/:short_code (every scan recorded)', redirect, base302));
    redirects += redirect.completed;
    ratios.redirect.push(redirect.rps / base302.rps);
    if (process.env.ONLY_REDIRECT) continue;
    const baseJson = await load('http://127.0.0.1:3901/json');
    console.log(row('  bare Fastify JSON (baseline)', baseJson));
    const image = await load(`http://127.0.0.1:3902/api/v1/qrcodes/${styled.id}/image`, { 'x-api-key': key });
    console.log(row('  GET /api/v1/qrcodes/:id/image (cache hit)', image, baseJson));
    ratios.image.push(image.rps / baseJson.rps);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const percent = (values: number[]) => `${(100 * median(values)).toFixed(0)}% (rounds: ${values.map((v) => `${(100 * v).toFixed(0)}%`).join(', ')})`;
  console.log(`median redirect / bare 302:   ${percent(ratios.redirect)}, target 50%`);
  if (ratios.image.length) console.log(`median image hit / bare JSON: ${percent(ratios.image)}, target 35%`);

  await app.get(ScanBuffer).flush(60_000);
  const stored = Number((await app.get(PrismaService).qrCode.findUniqueOrThrow({ where: { id: dynamic.id } })).scans) - scansBefore;
  const events = await app.get(PrismaService).scanEvent.count({ where: { qrCodeId: dynamic.id } });
  console.log(`scans counted: ${stored} of ${redirects} 302s counted by autocannon (requests in flight at a load's end come on top), scan events: ${events}`);
  await app.close();
  await bare.close();
}

main().then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });
