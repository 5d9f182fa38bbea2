/**
 * The geo lookup alone (GeoLocator.locate, src/scans/geo/geo-locator.ts): lookups a second and ns
 * a lookup, against the bundled country database or GEOIP_DB.
 *
 *   node -r @swc-node/register bench/geo-lookup.ts
 *
 * Env: GEOIP_DB (an MMDB file; the bundled CC0 country database by default), N (lookups per
 * measured pass, default 1,000,000), ROUNDS (passes per case, default 5; the median is printed).
 * Cases: random public IPv4 addresses (a new tree walk and, often, a record not decoded yet), random
 * IPv6 addresses in 2000::/3, one address over and over (a poster scanned from one café's Wi-Fi),
 * IPv4-mapped IPv6 (what a dual-stack socket reports), and a trusted country header. The addresses
 * are drawn before the measured loop, so their making is not measured. The issue's budget: 2 µs a
 * scan; the redirect's share is measured by bench/hot-paths.ts (SCAN_FROM).
 */
import { performance } from 'node:perf_hooks';
import { BUNDLED_GEO_DATABASE, GeoLocator, type GeoRequest } from '../src/scans/geo/geo-locator';

const N = Number(process.env.N ?? 1_000_000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const DATABASE = process.env.GEOIP_DB || require.resolve(BUNDLED_GEO_DATABASE);
/** Distinct addresses per case (a real mix repeats: the decoded-record cache is bounded at 20,000). */
const DISTINCT = 100_000;

/** A deterministic generator (mulberry32), so runs compare. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function publicIpv4(next: () => number): string {
  for (;;) {
    const a = 1 + Math.floor(next() * 223);
    if (a === 10 || a === 127 || a === 100 || a === 169 || a === 172 || a === 192) continue;
    return `${a}.${Math.floor(next() * 256)}.${Math.floor(next() * 256)}.${Math.floor(next() * 256)}`;
  }
}

function publicIpv6(next: () => number): string {
  const group = () => Math.floor(next() * 0x10000).toString(16);
  return [(0x2000 + Math.floor(next() * 0x1fff)).toString(16), group(), group(), group(), group(), group(), group(), group()].join(':');
}

function measure(label: string, locator: GeoLocator, requests: GeoRequest[]): void {
  let found = 0;
  for (const request of requests) if (locator.locate(request).country !== null) found++;
  const passes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let sink = 0;
    const start = performance.now();
    for (let i = 0; i < N; i++) sink += locator.locate(requests[i % requests.length]).country === null ? 0 : 1;
    const ns = ((performance.now() - start) * 1e6) / N;
    if (sink < 0) throw new Error('unreachable');
    passes.push(ns);
  }
  passes.sort((a, b) => a - b);
  const median = passes[Math.floor(passes.length / 2)];
  console.log(
    `${label.padEnd(44)} ${Math.round(1e9 / median)
      .toLocaleString('en')
      .padStart(
        12,
      )} lookups/s  ${median.toFixed(0).padStart(5)} ns a lookup (min ${passes[0].toFixed(0)}, max ${passes[passes.length - 1].toFixed(0)})  ` +
      `${((100 * found) / requests.length).toFixed(0)} % with a country`,
  );
}

function main(): void {
  const loadStart = performance.now();
  const locator = GeoLocator.open({
    databasePath: DATABASE,
    countryHeader: null,
    watchIntervalMs: 0,
    warn: (message) => console.warn(message),
    info: (message) => console.log(message),
  });
  console.log(`loaded in ${(performance.now() - loadStart).toFixed(0)} ms; N=${N.toLocaleString('en')}, ROUNDS=${ROUNDS}, median of the rounds`);
  const withHeader = GeoLocator.open({ databasePath: DATABASE, countryHeader: 'CF-IPCountry', watchIntervalMs: 0, warn: () => {}, info: () => {} });
  const next = random(27);
  const none = {};
  const v4 = Array.from({ length: DISTINCT }, () => ({ ip: publicIpv4(next), headers: none }));
  const v6 = Array.from({ length: DISTINCT }, () => ({ ip: publicIpv6(next), headers: none }));
  const mapped = v4.map((request) => ({ ip: `::ffff:${request.ip}`, headers: none }));
  measure('random public IPv4 (100,000 distinct)', locator, v4);
  measure('random IPv6 in 2000::/3 (most unallocated)', locator, v6);
  measure('one IPv4 address over and over (8.8.8.8)', locator, [{ ip: '8.8.8.8', headers: none }]);
  measure('IPv4-mapped IPv6 (::ffff:a.b.c.d)', locator, mapped);
  measure(
    'trusted header (CF-IPCountry: DE), IPv4',
    withHeader,
    v4.map((request) => ({ ip: request.ip, headers: { 'cf-ipcountry': 'DE' } })),
  );
  locator.close();
  withHeader.close();
}

main();
