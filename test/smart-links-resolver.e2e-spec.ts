import { auth, createQr, expectStatus, GENEROUS_RATE_LIMIT } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';
import { USER_AGENTS } from './support/user-agents';

jest.setTimeout(60_000);

const RUNS = Number(process.env.RESOLVER_RUNS ?? 1000);
const SEED = Number(process.env.RESOLVER_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** mulberry32: a small seeded generator, so a failing run can be replayed with RESOLVER_SEED. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** light-my-request sends a user agent of its own when none is given: every scan names one (a bot's among them). */
const AGENTS = Object.values(USER_AGENTS).map((agent) => agent.ua);
const LANGUAGES = [null, 'de-AT,de;q=0.9,en;q=0.5', 'en-US,en;q=0.9', 'fr-FR,fr;q=0.9', 'fr;q=0.4,de;q=0.8', 'es', 'ja,en;q=0.1', '*'];
/** The trusted header's country, or none (then the bundled database's answer for the address). */
const COUNTRIES = [null, null, 'DE', 'AT', 'US', 'FR', 'JP', 'XX'];
/** Documentation and private addresses (no country), and public ones the bundled database places. */
const ADDRESSES = ['203.0.113.', '198.51.100.', '10.0.0.', '8.8.8.', '1.1.1.', '9.9.9.'];
const QUERIES: Array<Record<string, string>> = [{}, {}, { src: 'poster' }, { src: 'flyer' }, { src: 'poster', lang: 'de' }];

/**
 * The dry-run resolver agrees with the redirect host (docs/smart-links.md#dry-run-resolver): random
 * simulated scans of a code with ten rules (splits, country, language, time, device, scans_below)
 * and a scan limit, each asked of the resolver and then sent to the real redirect host as the same
 * visitor (the address as X-Forwarded-For behind one trusted hop, the country in the trusted header).
 */
describe('the dry-run resolver agrees with the redirect host (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, TRUST_PROXY: '1', GEO_COUNTRY_HEADER: 'CF-IPCountry' });
    ({ key } = await t.newAccount());
  });
  afterAll(() => t?.close());

  it(`on ${RUNS} random scans (seed ${SEED}): outcome, status and location`, async () => {
    const now = Date.now();
    const day = 86_400_000;
    const hourInTokyo = Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', hourCycle: 'h23' }).format(now));
    const window = (from: number, to: number) => ({ from: `${String(from % 24).padStart(2, '0')}:00`, to: `${String(to % 24).padStart(2, '0')}:00` });
    const split = (...names: string[]) => ({ split: names.map((name, index) => ({ url: `https://example.com/${name}`, weight: 10 * (index + 1) })) });
    const code = await createQr(t, key, {
      content: { url: 'https://example.com/default' },
      is_dynamic: true,
      max_scans: Math.floor(RUNS * 0.7),
      utm: { source: 'qr', medium: 'print' },
      rules: [
        { conditions: { query: { src: 'poster' }, country: ['DE', 'AT', 'CH'] }, target: 'https://example.com/poster-dach' },
        { conditions: { query: { src: 'poster' } }, target: split('poster-a', 'poster-b') },
        { conditions: { country: ['US'], device: ['mobile'] }, target: 'https://example.com/us-mobile?utm_source=us' },
        { conditions: { language: ['de'], device: ['desktop'] }, target: 'https://example.com/de-desktop' },
        { conditions: { language: ['fr'], os: ['ios'] }, target: 'https://example.com/fr-ios' },
        // Hours that are not now in Tokyo (from two to four hours ahead): never holds during the run.
        { conditions: { time: { hours: window(hourInTokyo + 2, hourInTokyo + 4), time_zone: 'Asia/Tokyo' } }, target: 'https://example.com/never' },
        { conditions: { browser: ['samsung', 'edge'] }, target: split('x', 'y', 'z') },
        { conditions: { scans_below: Math.floor(RUNS * 0.3), device: ['mobile'] }, target: 'https://example.com/early-mobile' },
        { conditions: { os: ['android'], language: ['en', 'es'] }, target: 'https://example.com/android-en' },
        {
          conditions: { time: { from: new Date(now - day).toISOString(), to: new Date(now + day).toISOString() }, country: ['US', 'FR', 'JP'] },
          target: split('window-a', 'window-b'),
        },
      ],
    });

    const random = seeded(SEED);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const disagreements: string[] = [];
    const seen = { outcomes: new Map<string, number>(), rules: new Set<number | null>(), arms: new Set<string>() };
    for (let run = 0; run < RUNS; run++) {
      const ua = pick(AGENTS);
      const language = pick(LANGUAGES);
      const country = pick(COUNTRIES);
      const ip = `${pick(ADDRESSES)}${1 + Math.floor(random() * 40)}`;
      const query = pick(QUERIES);

      const resolveBody: Record<string, unknown> = { visitor: ip, query };
      resolveBody.user_agent = ua;
      if (language !== null) resolveBody.accept_language = language;
      // Cloudflare's XX is "unknown": the redirect host then asks the database, as the resolver does without a country.
      if (country !== null && country !== 'XX') resolveBody.country = country;
      const resolved = await t.request({ method: 'POST', url: `/api/v1/qrcodes/${code.id}/resolve`, headers: auth(key), payload: resolveBody });
      expectStatus(resolved, 200);
      const predicted = resolved.json();

      const headers: Record<string, string> = { 'x-forwarded-for': ip };
      headers['user-agent'] = ua;
      if (language !== null) headers['accept-language'] = language;
      if (country !== null) headers['cf-ipcountry'] = country;
      const search = new URLSearchParams(query).toString();
      const scanned = await t.request({
        method: 'GET',
        url: `/r/${code.short_code}${search ? `?${search}` : ''}`,
        headers,
        remoteAddress: '127.0.0.1',
      });

      const actual = { status: scanned.statusCode, location: scanned.headers.location ?? null };
      const expected = { status: predicted.status, location: predicted.location };
      const limitPage = predicted.outcome === 'limit_reached' && scanned.body.includes('Scan limit reached');
      const agrees =
        actual.status === expected.status && actual.location === expected.location && (predicted.outcome !== 'limit_reached' || limitPage);
      if (!agrees) disagreements.push(`#${run} ${JSON.stringify({ resolveBody, predicted, actual })}`);
      seen.outcomes.set(predicted.outcome, (seen.outcomes.get(predicted.outcome) ?? 0) + 1);
      seen.rules.add(predicted.rule?.index ?? null);
      if (predicted.arm !== null) seen.arms.add(`${predicted.rule.index}:${predicted.arm}`);
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
    // The run reached what it is meant to compare: most rules, split arms, and the limit.
    expect([...seen.outcomes.keys()].sort()).toEqual(['limit_reached', 'redirect']);
    expect(seen.rules.size).toBeGreaterThanOrEqual(8);
    expect(seen.rules.has(5)).toBe(false);
    expect(seen.arms.size).toBeGreaterThanOrEqual(6);
  });
});
