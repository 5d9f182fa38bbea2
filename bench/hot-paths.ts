/**
 * Redirect, landing-page and image-cache-hit throughput against bare Fastify baselines started in
 * the same run (so the figures are ratios, robust to a noisy machine).
 *
 *   node -r @swc-node/register bench/hot-paths.ts
 *
 * Env: BENCH_PG (server URL, default postgresql://postgres@127.0.0.1:5432), REDIS_URL (default
 * redis://127.0.0.1:6379; set REDIS_URL= to bench the in-process mode), DURATION (s per load,
 * default 6), ROUNDS (default 3), CONNECTIONS (default 50), ONLY_REDIRECT=1 (skip the image and
 * landing-page loads), ONLY_LANDING=1 (only the vCard landing page against bare JSON),
 * SCAN_UA (the scanners' user agent, an iPhone's by default; SCAN_UA= sends none), WEBHOOK=1 (a
 * qrcode.scanned webhook subscribed to the redirected code, posting to a receiver in a process of
 * its own: at the end the bench waits until every stored scan of the code reached the receiver;
 * with WEBHOOK_DELIVERY=false the service runs as ROLE=api: the events are written and not delivered, which measures the scan
 * store's share alone), PROFILE=file.cpuprofile (CPU profiles of this process during the first
 * round's bare 302, redirect, domain and 10-rule loads, the others beside it as .bare, .domain and
 * .rules.cpuprofile; the sampling
 * inflates that round's figures, so read it for where the time goes, not for the ratio), RATE=n
 * (each load offers n requests a second instead of all it can: the CPU per request of a build,
 * measured without saturating the machine, varies far less between runs than the ratios do),
 * SCAN_FROM=address (every scan comes from this address, in X-Forwarded-For through one trusted
 * hop (TRUST_PROXY=1), so the geo lookup finds a country: 8.8.8.8; unset, scans come from
 * 127.0.0.1, which no database holds), BENCH_DB (the database's name, default qr_bench_hot),
 * ONLY_GS1=1 (only the GS1 resolver against bare Fastify's 302, the built service and bare Fastify
 * each in a process of its own, every resolution's scan counted: bench/gs1-resolver.ts, after
 * `npm run build`; ROUNDS defaults to 5 there).
 * Beside the plain redirect: a code with 10 rules (country, language, time and device conditions;
 * the first nine fail on their last condition, language, and the 10th matches), scanned by a phone
 * in the US (the country in a trusted CDN header, CF-IPCountry, behind one hop: TRUST_PROXY=1).
 * The load generator (autocannon) runs as a separate process, started directly (npx stayed alive
 * beside it and took 15-20 % of a core from whatever it measured). After one unmeasured warm-up
 * load of each server (3 s), each round measures every
 * baseline right before its target, and the summary gives the median of the rounds' ratios: on a
 * shared 2-core machine single runs swing by a third. Each load also prints the CPU time per
 * request of the servers, the load generator, PostgreSQL and Redis, and how busy the servers'
 * event loop was: where the time goes.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { createApp } from '../src/app.factory';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { loadAppConfig } from '../src/config/app-config';
import { freshMigratedDatabase } from '../test/support/test-databases';
import { Database } from '../src/infra/database/database.service';
import { ScanBuffer } from '../src/scans/scan-buffer.service';
import { cpuPerRequest, sampleCpu } from './cpu-accounting';
import { benchGs1Resolver } from './gs1-resolver';
import { ReceiverProcess } from './webhook-receiver';

const PG = process.env.BENCH_PG ?? 'postgresql://postgres@127.0.0.1:5432';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DURATION = Number(process.env.DURATION ?? 6);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const DB = process.env.BENCH_DB || 'qr_bench_hot';
const SCAN_FROM = process.env.SCAN_FROM;
/** BENCH_PORT: the bare Fastify baseline's port; the app listens on the next, the webhook receiver on the one after. */
const BARE_PORT = Number(process.env.BENCH_PORT ?? 3901);
const APP_PORT = BARE_PORT + 1;
const RECEIVER_PORT = BARE_PORT + 2;
/** The branded domain of the domain case (its code is found by Host and short code). */
const BRAND_HOST = 'bench.brand.example';
const WEBHOOK = process.env.WEBHOOK === '1';
const DELIVERY = process.env.WEBHOOK_DELIVERY !== 'false';
/**
 * Scans come from phones: the user agent is hashed, classified and stored with every scan (SCAN_UA=
 * sends none, as before 2026-11-22's fourth session).
 */
const SCAN_UA =
  process.env.SCAN_UA ??
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const SCANNER: Record<string, string> = { ...(SCAN_UA ? { 'user-agent': SCAN_UA } : {}), ...(SCAN_FROM ? { 'x-forwarded-for': SCAN_FROM } : {}) };
/** CPU profiles of the first round's redirect loads and their baseline (open them in Chrome's DevTools). */
const PROFILE = process.env.PROFILE;
/**
 * RATE=n: every load offers n requests a second in all rather than as many as the server takes; the
 * CPU per request is then comparable between builds on a noisy machine (the ratios are not).
 */
const RATE = Number(process.env.RATE ?? 0);
/** The smart-link case's scanner: a phone in the US (the CDN's header) that prefers English. */
const RULES_SCANNER: Record<string, string> = { ...SCANNER, 'cf-ipcountry': 'US', 'accept-language': 'en-US,en;q=0.9,de;q=0.5' };
const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
/**
 * Ten rules of country + language + time + device: every condition but the language holds for the
 * scanner, so the first nine are evaluated to their last condition before the 10th matches.
 */
const TEN_RULES = Array.from({ length: 10 }, (_, index) => ({
  name: `rule ${index + 1}`,
  conditions: {
    country: ['US', 'CA', 'GB'],
    language: [index === 9 ? 'en' : ['fr', 'es', 'it', 'pt', 'nl', 'pl', 'sv', 'da', 'fi'][index]],
    time: { days: EVERY_DAY, hours: { from: '00:00', to: '24:00' }, time_zone: index % 2 ? 'America/New_York' : 'Europe/Berlin' },
    device: ['mobile', 'tablet'],
  },
  target: `https://example.com/rule-${index + 1}`,
}));

interface Result {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  completed: number;
  ok: number;
  cpu: string;
}

const run = promisify(execFile);
/** The webhook receiver's process (WEBHOOK=1): its CPU is reported as `helper`. */
let helperPid: number | undefined;

/** autocannon in its own process: the servers under test keep this process's event loop to themselves. */
async function load(url: string, headers: Record<string, string> = {}, seconds = DURATION): Promise<Result> {
  const args = [require.resolve('autocannon/autocannon.js'), '-c', String(CONNECTIONS), '-d', String(seconds), '-j', '--renderStatusCodes'];
  if (RATE > 0) args.push('-R', String(RATE));
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  const before = sampleCpu(helperPid);
  const loopBefore = performance.eventLoopUtilization();
  const { stdout } = await run(process.execPath, [...args, url], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const after = sampleCpu(helperPid);
  const loop = performance.eventLoopUtilization(loopBefore);
  const out = JSON.parse(stdout);
  return {
    rps: Math.round(out.requests.average),
    p50: out.latency.p50,
    p99: out.latency.p99,
    non2xx: out.non2xx,
    errors: out.errors,
    completed: out['3xx'] ?? 0,
    ok: out['2xx'] ?? 0,
    cpu: `${cpuPerRequest(before, after, out.requests.total)}; servers' event loop ${(100 * loop.utilization).toFixed(0)}% busy`,
  };
}

const row = (label: string, r: Result, baseline?: Result) =>
  `${label.padEnd(44)} ${String(r.rps).padStart(7)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms` +
  (baseline ? `  = ${((100 * r.rps) / baseline.rps).toFixed(0)}% of baseline` : '') +
  (r.errors ? `  errors ${r.errors}` : '') +
  `\n${''.padEnd(46)}${r.cpu}`;

const profiler = PROFILE ? new Session() : undefined;
const profiles: unknown[] = [];

async function profiled<T>(work: () => Promise<T>, round: number): Promise<T> {
  if (!profiler || round !== 1) return work();
  await profiler.post('Profiler.start');
  try {
    return await work();
  } finally {
    profiles.push((await profiler.post('Profiler.stop')).profile);
  }
}

function writeProfile(file: string): void {
  const [bare, redirect, domain, rules] = profiles;
  const beside = (suffix: string) => file.replace(/(\.cpuprofile)?$/, `.${suffix}.cpuprofile`);
  writeFileSync(file, JSON.stringify(redirect));
  writeFileSync(beside('bare'), JSON.stringify(bare));
  writeFileSync(beside('domain'), JSON.stringify(domain));
  writeFileSync(beside('rules'), JSON.stringify(rules));
  console.log(`CPU profiles of the first round's measured loads: ${file} (redirect), and beside it .bare, .domain and .rules.cpuprofile`);
}

async function main(): Promise<void> {
  // The GS1 resolver's case runs the built service and bare Fastify in processes of their own (bench/gs1-resolver.ts).
  if (process.env.ONLY_GS1) return benchGs1Resolver();
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.setSamplingInterval', { interval: 100 });
  }
  await freshMigratedDatabase(PG, DB);

  const bare = Fastify();
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">' + 'x'.repeat(5000) + '</svg>');
  bare.get('/302', (_req, reply) => reply.redirect('https://example.com/target', 302));
  bare.get('/json', () => ({ hello: 'world' }));
  bare.get('/svg', (_req, reply) => reply.type('image/svg+xml').send(svg));
  await bare.listen({ port: BARE_PORT, host: '127.0.0.1' });

  const config = loadAppConfig({
    PORT: String(APP_PORT),
    DATABASE_URL: `${PG}/${DB}`,
    REDIS_URL: REDIS_URL || undefined,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    REDIS_KEY_PREFIX: `bench:${process.pid}:`,
    // One trusted hop: SCAN_FROM's X-Forwarded-For, and the rules case's country header (scans without either read the socket's address).
    TRUST_PROXY: '1',
    GEO_COUNTRY_HEADER: 'CF-IPCountry',
    ...(WEBHOOK ? { WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE: '1', ...(DELIVERY ? {} : { ROLE: 'api' }) } : {}),
  });
  const app = await createApp(config, { logger: false });
  await app.listen({ port: APP_PORT, host: '127.0.0.1' });
  const { key } = await app.get(ApiKeysService).create('bench');
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const post = async (body: unknown): Promise<Record<string, any>> =>
    (await fetch(`http://127.0.0.1:${APP_PORT}/api/v1/qrcodes`, { method: 'POST', headers, body: JSON.stringify(body) })).json() as Record<
      string,
      any
    >;
  const dynamic = await post({ type: 'url', content: { url: 'https://example.com/target' }, is_dynamic: true });
  const ruled = await post({ type: 'url', content: { url: 'https://example.com/target' }, is_dynamic: true, rules: TEN_RULES });
  const ruledAnswer = await fetch(`http://127.0.0.1:${APP_PORT}/r/${ruled.short_code}`, { redirect: 'manual', headers: RULES_SCANNER });
  if (ruledAnswer.headers.get('location') !== 'https://example.com/rule-10') {
    throw new Error(`the 10th rule does not match: ${ruledAnswer.status} ${ruledAnswer.headers.get('location')}`);
  }
  // The domain case: a verified domain (marked so directly: no DNS here) and a vanity code on it, found by Host.
  const prismaSetup = app.get(Database).inspectionClient();
  const domain = (await (
    await fetch(`http://127.0.0.1:${APP_PORT}/api/v1/domains`, { method: 'POST', headers, body: JSON.stringify({ hostname: BRAND_HOST }) })
  ).json()) as { id: string };
  await prismaSetup.domain.update({ where: { id: domain.id }, data: { status: 'verified', verifiedAt: new Date() } });
  await prismaSetup.$disconnect();
  const branded = await post({
    type: 'url',
    content: { url: 'https://example.com/branded' },
    is_dynamic: true,
    domain_id: domain.id,
    short_code: 'spring',
  });
  const ON_BRAND = { ...SCANNER, host: BRAND_HOST };
  // A full contact card: its landing page (about 5.5 KB of HTML) is what a scan of it answers.
  const contact = await post({
    type: 'vcard',
    is_dynamic: true,
    content: {
      first_name: 'Ada',
      last_name: 'Lovelace',
      title: 'Chief Mathematician',
      organization: 'Analytical Engines Ltd',
      phone: '+44 20 7946 0000',
      mobile: '+44 7700 900123',
      email: 'ada@example.com',
      website: 'https://example.com/ada',
      address: { street: '12 Example Street', city: 'London', postcode: 'N1 9GU', country: 'United Kingdom' },
      note: 'Met at the spring fair.',
    },
  });
  const receiver = WEBHOOK ? await ReceiverProcess.start(RECEIVER_PORT) : undefined;
  helperPid = receiver?.pid;
  if (receiver) {
    const hook = await fetch(`http://127.0.0.1:${APP_PORT}/api/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: receiver.url, events: ['qrcode.scanned'], qrcode_ids: [dynamic.id] }),
    });
    if (hook.status !== 201) throw new Error(`webhook not created: ${hook.status} ${await hook.text()}`);
  }
  const styled = await post({
    type: 'url',
    content: { url: 'https://example.com/poster' },
    style: { dotsOptions: { type: 'rounded', color: '#1a237e' } },
  });
  await fetch(`http://127.0.0.1:${APP_PORT}/api/v1/qrcodes/${styled.id}/image`, { headers }); // warm the image cache

  console.log(
    `hot paths: ${CONNECTIONS} connections, ${DURATION} s per load, ${ROUNDS} rounds, Redis ${REDIS_URL ? 'on' : 'off'}, ` +
      `scans ${SCAN_UA ? 'with' : 'without'} a user agent, ` +
      `${WEBHOOK ? 'a qrcode.scanned webhook subscribed to the redirected code' : 'no webhook'}, node ${process.version}`,
  );
  const prisma = app.get(Database).inspectionClient();
  const scansOf = async (id: string) => Number((await prisma.qrCode.findUniqueOrThrow({ where: { id } })).scans);
  const scansBefore = {
    redirect: await scansOf(dynamic.id),
    landing: await scansOf(contact.id),
    branded: await scansOf(branded.id),
    ruled: await scansOf(ruled.id),
  };
  const runRedirect = !process.env.ONLY_LANDING;
  const runOthers = !process.env.ONLY_REDIRECT;
  let redirects = 0;
  let brandedRedirects = 0;
  let ruledRedirects = 0;
  let pages = 0;
  // One unmeasured load of each server first: the rounds compare JIT-compiled code, not warm-up.
  const warmUp = Math.min(3, DURATION);
  if (runRedirect) {
    await load(`http://127.0.0.1:${BARE_PORT}/302`, SCANNER, warmUp);
    redirects += (await load(`http://127.0.0.1:${APP_PORT}/r/${dynamic.short_code}`, SCANNER, warmUp)).completed;
    brandedRedirects += (await load(`http://127.0.0.1:${APP_PORT}/r/spring`, ON_BRAND, warmUp)).completed;
    ruledRedirects += (await load(`http://127.0.0.1:${APP_PORT}/r/${ruled.short_code}`, RULES_SCANNER, warmUp)).completed;
  }
  if (runOthers) {
    await load(`http://127.0.0.1:${BARE_PORT}/json`, SCANNER, warmUp);
    if (runRedirect) await load(`http://127.0.0.1:${APP_PORT}/api/v1/qrcodes/${styled.id}/image`, { 'x-api-key': key }, warmUp);
    pages += (await load(`http://127.0.0.1:${APP_PORT}/r/${contact.short_code}`, SCANNER, warmUp)).ok;
  }
  const ratios = { redirect: [] as number[], branded: [] as number[], ruled: [] as number[], image: [] as number[], landing: [] as number[] };
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round}`);
    if (runRedirect) {
      const base302 = await profiled(() => load(`http://127.0.0.1:${BARE_PORT}/302`, SCANNER), round);
      console.log(row('  bare Fastify 302 (baseline)', base302));
      const redirect = await profiled(() => load(`http://127.0.0.1:${APP_PORT}/r/${dynamic.short_code}`, SCANNER), round);
      console.log(row('  GET /r/:short_code (every scan recorded)', redirect, base302));
      redirects += redirect.completed;
      ratios.redirect.push(redirect.rps / base302.rps);
      const onDomain = await profiled(() => load(`http://127.0.0.1:${APP_PORT}/r/spring`, ON_BRAND), round);
      console.log(row(`  GET /r/spring on ${BRAND_HOST} (domain)`, onDomain, base302));
      brandedRedirects += onDomain.completed;
      ratios.branded.push(onDomain.rps / base302.rps);
      const withRules = await profiled(() => load(`http://127.0.0.1:${APP_PORT}/r/${ruled.short_code}`, RULES_SCANNER), round);
      console.log(row('  GET /r/:short_code, 10 rules (10th matches)', withRules, base302));
      ruledRedirects += withRules.completed;
      ratios.ruled.push(withRules.rps / base302.rps);
    }
    if (!runOthers) continue;
    if (runRedirect) {
      const baseJson = await load(`http://127.0.0.1:${BARE_PORT}/json`);
      console.log(row('  bare Fastify JSON (baseline)', baseJson));
      const image = await load(`http://127.0.0.1:${APP_PORT}/api/v1/qrcodes/${styled.id}/image`, { 'x-api-key': key });
      console.log(row('  GET /api/v1/qrcodes/:id/image (cache hit)', image, baseJson));
      ratios.image.push(image.rps / baseJson.rps);
    }
    const baseJsonPhone = await load(`http://127.0.0.1:${BARE_PORT}/json`, SCANNER);
    console.log(row('  bare Fastify JSON (baseline, phone UA)', baseJsonPhone));
    const landing = await load(`http://127.0.0.1:${APP_PORT}/r/${contact.short_code}`, SCANNER);
    console.log(row('  GET /r/:short_code, vCard page (scans kept)', landing, baseJsonPhone));
    pages += landing.ok;
    ratios.landing.push(landing.rps / baseJsonPhone.rps);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const percent = (values: number[]) => `${(100 * median(values)).toFixed(0)}% (rounds: ${values.map((v) => `${(100 * v).toFixed(0)}%`).join(', ')})`;
  if (ratios.redirect.length) console.log(`median redirect / bare 302:   ${percent(ratios.redirect)}, target 50%`);
  if (ratios.branded.length) console.log(`median domain redirect / bare 302: ${percent(ratios.branded)}, target 50%`);
  if (ratios.ruled.length) console.log(`median redirect with 10 rules / bare 302: ${percent(ratios.ruled)}, target 45%`);
  if (ratios.image.length) console.log(`median image hit / bare JSON: ${percent(ratios.image)}, target 35%`);
  if (ratios.landing.length) console.log(`median vCard page / bare JSON: ${percent(ratios.landing)}, target 40%`);

  if (PROFILE) writeProfile(PROFILE);
  await app.get(ScanBuffer).flush(60_000);
  const stored = (await scansOf(dynamic.id)) - scansBefore.redirect;
  const events = await prisma.scanEvent.count({ where: { qrCodeId: dynamic.id } });
  if (runRedirect)
    console.log(
      `redirect scans counted: ${stored} of ${redirects} 302s counted by autocannon ` +
        `(requests in flight at a load's end come on top), scan events: ${events}`,
    );
  if (runRedirect) {
    const brandedStored = (await scansOf(branded.id)) - scansBefore.branded;
    console.log(
      `domain redirect scans counted: ${brandedStored} of ${brandedRedirects} 302s counted by autocannon (in flight at a load's end come on top)`,
    );
  }
  if (runRedirect) {
    const ruledStored = (await scansOf(ruled.id)) - scansBefore.ruled;
    const ruledEvents = await prisma.scanEvent.count({ where: { qrCodeId: ruled.id, ruleIndex: 9 } });
    console.log(
      `10-rule redirect scans counted: ${ruledStored} of ${ruledRedirects} 302s counted by autocannon (in flight at a load's end come on top), ` +
        `scan events of the 10th rule: ${ruledEvents}`,
    );
  }
  if (receiver && DELIVERY) {
    const drainStarted = Date.now();
    const atEnd = await receiver.stats();
    const delivered = await receiver.until((stats) => stats.scans >= events, 600_000);
    const drainSeconds = (Date.now() - drainStarted) / 1000;
    const spanSeconds = (delivered.lastAt - delivered.firstAt) / 1000;
    console.log(
      `webhook: ${delivered.scans} of ${events} stored scans reached the receiver ` +
        `(${atEnd.scans} when the loads ended, the rest within ${drainSeconds.toFixed(1)} s), ` +
        `in ${delivered.ids} qrcode.scanned events ` +
        `(${delivered.requests} requests; ${(delivered.scans / Math.max(1, delivered.ids)).toFixed(1)} scans an event), ` +
        `${(delivered.ids / spanSeconds).toFixed(0)} events/s and ${(delivered.scans / spanSeconds).toFixed(0)} scans/s ` +
        'delivered from the first to the last',
    );
  }
  receiver?.stop();
  const storedPages = (await scansOf(contact.id)) - scansBefore.landing;
  const pageEvents = await prisma.scanEvent.count({ where: { qrCodeId: contact.id } });
  if (runOthers) console.log(`vCard page scans counted: ${storedPages} of ${pages} 200s counted by autocannon, scan events: ${pageEvents}`);
  await prisma.$disconnect();
  await app.close();
  await bare.close();
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
