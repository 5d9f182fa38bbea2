/**
 * The GS1 resolver's throughput against bare Fastify's 302, measured in the same run (ratios, robust
 * to a noisy machine): a GTIN's default link on the default host (`/gs1/01/<gtin>`), a lot that
 * resolves through its GTIN with Accept-Language (`/gs1/01/<gtin>/10/<lot>`), and the same GTIN at
 * the root of a verified domain (found by Host).
 *
 *   node -r @swc-node/register bench/gs1-resolver.ts
 *
 * Env: BENCH_PG (default postgresql://postgres@127.0.0.1:5432), REDIS_URL (default
 * redis://127.0.0.1:6379), DURATION (s per load, default 6), ROUNDS (default 3), CONNECTIONS
 * (default 50), BENCH_PORT (bare Fastify's port, default 4690; the app listens on the next).
 * autocannon runs in a process of its own; each round measures the baseline right before each
 * target, and the summary gives the median of the rounds' ratios.
 */
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { createApp } from '../src/app.factory';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { loadAppConfig } from '../src/config/app-config';
import { Database } from '../src/infra/database/database.service';
import { freshMigratedDatabase } from '../test/support/test-databases';
import { cpuPerRequest, sampleCpu } from './cpu-accounting';

const PG = process.env.BENCH_PG ?? 'postgresql://postgres@127.0.0.1:5432';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DURATION = Number(process.env.DURATION ?? 6);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const BARE_PORT = Number(process.env.BENCH_PORT ?? 4690);
const APP_PORT = BARE_PORT + 1;
const DB = 'qr_gs1_bench';
const GTIN = '09506000134352';
const BRAND_HOST = 'id.bench-gs1.example';
const PHONE = {
  'user-agent':
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'accept-language': 'fr-FR,fr;q=0.9,en;q=0.8',
};

const run = promisify(execFile);

async function load(url: string, headers: Record<string, string> = {}, seconds = DURATION) {
  const args = [require.resolve('autocannon/autocannon.js'), '-c', String(CONNECTIONS), '-d', String(seconds), '-j', '--renderStatusCodes'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  const before = sampleCpu(undefined);
  const { stdout } = await run(process.execPath, [...args, url], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const out = JSON.parse(stdout);
  return {
    rps: Math.round(out.requests.average),
    p99: out.latency.p99,
    redirects: out['3xx'] ?? 0,
    non3xx: out.requests.total - (out['3xx'] ?? 0),
    cpu: cpuPerRequest(before, sampleCpu(undefined), out.requests.total),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  await freshMigratedDatabase(PG, DB);
  const bare = Fastify();
  bare.get('/302', (_req, reply) => reply.redirect('https://example.com/target', 302));
  await bare.listen({ port: BARE_PORT, host: '127.0.0.1' });

  const config = loadAppConfig({
    PORT: String(APP_PORT),
    DATABASE_URL: `${PG}/${DB}`,
    REDIS_URL: REDIS_URL || undefined,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    REDIS_KEY_PREFIX: `bench-gs1:${process.pid}:`,
  });
  const app = await createApp(config, { logger: false });
  await app.listen({ port: APP_PORT, host: '127.0.0.1' });
  const { key, accountId } = await app.get(ApiKeysService).create('bench');
  const prisma = app.get(Database).inspectionClient();
  const now = new Date();
  const domain = await prisma.domain.create({
    data: {
      id: crypto.randomUUID(),
      accountId,
      hostname: BRAND_HOST,
      status: 'verified',
      verificationToken: 'x',
      verifiedAt: now,
      createdAt: now,
      updatedAt: now,
    },
  });
  await prisma.$disconnect();
  const links = [
    { link_type: 'gs1:pip', href: 'https://brand.example/en', title: 'Product', hreflang: ['en'], type: 'text/html', default: true },
    { link_type: 'gs1:pip', href: 'https://brand.example/fr', title: 'Produit', hreflang: ['fr'], type: 'text/html' },
    { link_type: 'gs1:recallStatus', href: 'https://brand.example/recall?lot={10}', title: 'Recall' },
  ];
  for (const body of [
    { path: `/01/${GTIN}`, links },
    { path: `/01/${GTIN}`, domain_id: domain.id, links },
  ]) {
    const res = await fetch(`http://127.0.0.1:${APP_PORT}/api/v1/gs1/items`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`item not created: ${res.status} ${await res.text()}`);
  }
  const targets = [
    { label: 'GTIN default link (/gs1/01/…)', url: `http://127.0.0.1:${APP_PORT}/gs1/01/${GTIN}`, headers: PHONE },
    { label: 'lot through its GTIN, French (/gs1/…/10/…)', url: `http://127.0.0.1:${APP_PORT}/gs1/01/${GTIN}/10/LOT42?17=271231`, headers: PHONE },
    { label: 'GTIN on a verified domain (Host)', url: `http://127.0.0.1:${APP_PORT}/01/${GTIN}`, headers: { ...PHONE, host: BRAND_HOST } },
  ];
  for (const target of targets) {
    // node:http, not fetch: fetch may not set Host.
    const status = await new Promise<number | undefined>((resolve, reject) =>
      request(target.url, { headers: target.headers }, (response) => resolve(response.resume().statusCode))
        .on('error', reject)
        .end(),
    );
    if (status !== 307) throw new Error(`${target.label}: ${status}`);
  }
  await load(`http://127.0.0.1:${BARE_PORT}/302`, {}, 3);
  for (const target of targets) await load(target.url, target.headers, 3);

  const ratios = new Map<string, number[]>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const target of targets) {
      const baseline = await load(`http://127.0.0.1:${BARE_PORT}/302`);
      const measured = await load(target.url, target.headers);
      const ratio = (100 * measured.rps) / baseline.rps;
      ratios.set(target.label, [...(ratios.get(target.label) ?? []), ratio]);
      console.log(
        `round ${round}  ${target.label.padEnd(44)} ${String(measured.rps).padStart(6)} req/s ` +
          `(p99 ${measured.p99} ms, ${measured.non3xx} not 3xx)  ` +
          `bare 302 ${baseline.rps} req/s  = ${ratio.toFixed(0)}%\n          ${measured.cpu}`,
      );
    }
  }
  console.log('\nmedian of the rounds (resolver / bare Fastify 302, same run):');
  for (const [label, values] of ratios)
    console.log(`  ${label.padEnd(44)} ${median(values).toFixed(0)}%  (rounds: ${values.map((v) => v.toFixed(0)).join(', ')})`);
  await app.close();
  await bare.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
