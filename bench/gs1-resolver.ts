/**
 * The GS1 resolver's throughput against bare Fastify's 302 (issue 40: ≥ 45 % with every resolution
 * stored), each server in a process of its own: the built service (`node dist/main.js`, ROLE=all,
 * PostgreSQL and Redis) and bare Fastify (bench/bare-302.ts); the load generator (autocannon) in a
 * third. Targets: a GTIN's default link on the default host (`/gs1/01/<gtin>`), and a lot that
 * resolves through its GTIN, in French, with a data attribute passed on, at the root of a verified
 * branded domain (found by Host). Rounds alternate: bare 302, then each target; the summary gives
 * the median and the spread of the rounds' ratios. At the end the service is stopped (SIGTERM: it
 * stores what its scan buffer holds) and the stored gs1_scan_events are compared with the 3xx
 * answers autocannon counted (warm-ups included; requests in flight at a load's end come on top).
 *
 *   npm run build && node -r @swc-node/register bench/gs1-resolver.ts
 *   ONLY_GS1=1 node -r @swc-node/register bench/hot-paths.ts      # the same, from hot-paths
 *
 * Env: BENCH_PG (default postgresql://postgres@127.0.0.1:5432), REDIS_URL (default
 * redis://127.0.0.1:6379), DURATION (s per load, default 6), ROUNDS (default 5), CONNECTIONS
 * (default 50), BENCH_DB (default qr_bench_gs1; dropped and created), CPU_PROF=dir (the service
 * runs with --cpu-prof, its profile written to dir at the end), RATE=n (each load offers n
 * requests a second: the servers' CPU per request, which varies less than the ratios on a busy
 * machine).
 */
import { execFile, fork } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort, ServiceProcess } from '../test/support/service-process';
import { freshMigratedDatabase } from '../test/support/test-databases';
import { cpuPerRequest, sampleCpu } from './cpu-accounting';

const PG = process.env.BENCH_PG ?? 'postgresql://postgres@127.0.0.1:5432';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DURATION = Number(process.env.DURATION ?? 6);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const DB = process.env.BENCH_DB || 'qr_bench_gs1';
const CPU_PROF = process.env.CPU_PROF;
/** RATE=n: each load offers n requests a second instead of all it can (the CPU per request, steadier on a busy machine). */
const RATE = Number(process.env.RATE ?? 0);
const GTIN = '09506000134352';
const BRAND_HOST = 'id.bench-gs1.example';
const PHONE = {
  'user-agent':
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'accept-language': 'fr-FR,fr;q=0.9,en;q=0.8',
};
if (!/^qr_bench[a-z0-9_]*$/.test(DB)) throw new Error('BENCH_DB must match ^qr_bench[a-z0-9_]*$ (the bench drops it)');

const run = promisify(execFile);

interface Load {
  rps: number;
  p99: number;
  redirects: number;
  other: number;
  cpu: string;
}

/** autocannon in its own process; the CPU of the server under test (`pid`) is reported as `helper`. */
async function load(url: string, headers: Record<string, string>, pid: number, seconds = DURATION): Promise<Load> {
  const args = [require.resolve('autocannon/autocannon.js'), '-c', String(CONNECTIONS), '-d', String(seconds), '-j', '--renderStatusCodes'];
  if (RATE > 0) args.push('-R', String(RATE));
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  const before = sampleCpu(pid);
  const { stdout } = await run(process.execPath, [...args, url], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const out = JSON.parse(stdout);
  const redirects = out['3xx'] ?? 0;
  return {
    rps: Math.round(out.requests.average),
    p99: out.latency.p99,
    redirects,
    other: out.requests.total - redirects,
    cpu: cpuPerRequest(before, sampleCpu(pid), out.requests.total).replace('helper', 'server'),
  };
}

async function startBare(port: number): Promise<{ pid: number; stop(): void }> {
  const child = fork(join(__dirname, 'bare-302.ts'), [], {
    execArgv: ['-r', '@swc-node/register'],
    env: { ...process.env, BARE_PORT: String(port) },
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`bare Fastify exited with ${code}`)));
  });
  return { pid: child.pid!, stop: () => child.kill('SIGKILL') };
}

/** The service's key, a verified domain (marked so directly: no DNS here) and the GTIN's item on both hosts. */
async function seed(service: ServiceProcess, databaseUrl: string): Promise<string> {
  for (let i = 0; i < 50 && !service.firstKey; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const headers = { 'x-api-key': service.firstKey!, 'content-type': 'application/json' };
  const domain = (await (
    await fetch(`${service.origin}/api/v1/domains`, { method: 'POST', headers, body: JSON.stringify({ hostname: BRAND_HOST }) })
  ).json()) as { id: string };
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`UPDATE domains SET status = 'verified', verified_at = now() WHERE id = $1`, [domain.id]);
  await db.end();
  const links = [
    { link_type: 'gs1:pip', href: 'https://brand.example/en', title: 'Product', hreflang: ['en'], type: 'text/html', default: true },
    { link_type: 'gs1:pip', href: 'https://brand.example/fr', title: 'Produit', hreflang: ['fr'], type: 'text/html' },
    { link_type: 'gs1:recallStatus', href: 'https://brand.example/recall?lot={10}', title: 'Recall' },
  ];
  for (const body of [
    { path: `/01/${GTIN}`, links },
    { path: `/01/${GTIN}`, domain_id: domain.id, links },
  ]) {
    const res = await fetch(`${service.origin}/api/v1/gs1/items`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`item not created: ${res.status} ${await res.text()}`);
  }
  const code = await fetch(`${service.origin}/api/v1/qrcodes`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ type: 'url', content: { url: 'https://brand.example/en' }, is_dynamic: true }),
  });
  return ((await code.json()) as { short_code: string }).short_code;
}

/** One request through node:http (fetch may not set Host): the status. */
const statusOf = (url: string, headers: Record<string, string>) =>
  new Promise<number | undefined>((resolve, reject) =>
    request(url, { headers }, (response) => resolve(response.resume().statusCode))
      .on('error', reject)
      .end(),
  );

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchGs1Resolver(): Promise<void> {
  const databaseUrl = await freshMigratedDatabase(PG, DB);
  const barePort = await freePort();
  const baseline = await startBare(barePort);
  const service = await ServiceProcess.start(
    {
      PORT: String(await freePort()),
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      REDIS_KEY_PREFIX: `bench-gs1:${process.pid}:`,
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'warn',
      BOOTSTRAP_KEY: '1',
    },
    60_000,
    CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [],
  ).catch((error: unknown) => {
    baseline.stop();
    throw error;
  });
  try {
    const shortCode = await seed(service, databaseUrl);
    const targets = [
      { label: 'GTIN default link, default host (/gs1/01/…)', url: `${service.origin}/gs1/01/${GTIN}`, headers: PHONE },
      {
        label: 'lot via its GTIN, French, ?17=, on a domain',
        url: `${service.origin}/01/${GTIN}/10/LOT42?17=271231`,
        headers: { ...PHONE, host: BRAND_HOST },
      },
      // The reference: a code's redirect in the same service, its scan stored by the code scan pipeline.
      { label: 'reference: a code redirect (/r/…)', url: `${service.origin}/r/${shortCode}`, headers: PHONE, expect: 302 },
    ];
    for (const target of targets) {
      const status = await statusOf(target.url, target.headers);
      if (status !== (target.expect ?? 307)) throw new Error(`${target.label}: ${status}`);
    }
    const bareUrl = `http://127.0.0.1:${barePort}/302`;
    let redirects = 0;
    let other = 0;
    await load(bareUrl, PHONE, baseline.pid, 3);
    const resolutions = (target: { expect?: number }, answered: Load) => {
      if (target.expect) return;
      redirects += answered.redirects;
      other += answered.other;
    };
    for (const target of targets) resolutions(target, await load(target.url, target.headers, service.pid, 3));
    console.log(
      `GS1 resolver vs bare Fastify 302: ${CONNECTIONS} connections, ${DURATION} s per load, ${ROUNDS} rounds, ` +
        `each server in its own process, node ${process.version}, load average at start ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
    );
    const ratios = new Map<string, number[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      const base = await load(bareUrl, PHONE, baseline.pid);
      console.log(`round ${round}  bare Fastify 302 ${String(base.rps).padStart(6)} req/s (p99 ${base.p99} ms)\n          ${base.cpu}`);
      for (const target of targets) {
        const measured = await load(target.url, target.headers, service.pid);
        resolutions(target, measured);
        const ratio = (100 * measured.rps) / base.rps;
        ratios.set(target.label, [...(ratios.get(target.label) ?? []), ratio]);
        console.log(
          `round ${round}  ${target.label.padEnd(46)} ${String(measured.rps).padStart(6)} req/s ` +
            `(p99 ${measured.p99} ms, ${measured.other} not 3xx) ` +
            `= ${ratio.toFixed(0)}%\n          ${measured.cpu}`,
        );
      }
    }
    console.log(
      `\nresolver / bare Fastify 302 (target 45 %), load average at end ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}:`,
    );
    for (const [label, values] of ratios) {
      const sorted = [...values].sort((a, b) => a - b);
      console.log(
        `  ${label.padEnd(46)} median ${median(values).toFixed(0)}%  spread ${sorted[0].toFixed(0)}-${sorted[sorted.length - 1].toFixed(0)}%` +
          `  (rounds: ${values.map((v) => v.toFixed(0)).join(', ')})`,
      );
    }
    const stopped = await service.stop('SIGTERM', 60_000);
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    const stored = Number((await db.query('SELECT count(*) AS n FROM gs1_scan_events')).rows[0].n);
    await db.end();
    console.log(
      `every resolution stored? ${stored} gs1_scan_events for ${redirects} 3xx answers counted by autocannon ` +
        `(requests in flight at a load's end come on top; ${other} answers not 3xx; service stopped in ${stopped.ms} ms)` +
        (stored >= redirects ? '' : `  MISSING ${redirects - stored}`),
    );
  } finally {
    await service.kill();
    baseline.stop();
  }
}

if (require.main === module) {
  benchGs1Resolver().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
