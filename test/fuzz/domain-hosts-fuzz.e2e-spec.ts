import fc from 'fast-check';
import { normaliseHostname } from '../../src/domains/hostname';
import { errorShapeProblems } from '../support/error-shape';
import { auth, expectStatus, GENEROUS_RATE_LIMIT } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Hostnames given to POST /api/v1/domains (IDN, mixed case, trailing dots, IP literals, over-long
 * labels, underscores, ports, junk) and Host / X-Forwarded-Host headers on the redirect host and
 * the API: never a 5xx, every JSON error in the error shape. FUZZ_RUNS and FUZZ_SEED as in api-fuzz.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);

const label = fc.oneof(
  fc.stringMatching(/^[a-z0-9-]{1,12}$/),
  fc.constantFrom('xn--bcher-kva', 'bücher', 'ÄÖÜ', 'ＱＲ', 'аррӏе', 'under_score', '-lead', 'trail-', '', 'a'.repeat(63), 'a'.repeat(64), '😀'),
  fc.string({ maxLength: 8 }),
);
const hostname = fc.oneof(
  fc.array(label, { minLength: 1, maxLength: 6 }).map((labels) => labels.join('.')),
  fc
    .tuple(fc.array(label, { minLength: 1, maxLength: 4 }), fc.boolean())
    .map(([labels, dot]) => `${labels.join('.')}${dot ? '.' : ''}`.toUpperCase()),
  fc.constantFrom(
    '127.0.0.1',
    '[::1]',
    '::1',
    '0x7f.1',
    '1.2.3.4.5',
    'qr.example.com:443',
    'https://qr.example.com',
    'qr.test',
    'api.test',
    `${'abcdefghi.'.repeat(30)}com`,
  ),
  fc.ipV4(),
  fc.ipV6(),
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);
const hostHeader = fc.oneof(
  hostname,
  fc.tuple(hostname, fc.oneof(fc.nat({ max: 70000 }).map(String), fc.string({ maxLength: 6 }))).map(([host, port]) => `${host}:${port}`),
  fc.constantFrom('', ' ', ',', 'a.example, b.example', 'localhost', '[', '[::1', 'a..b', '.', '..'),
);
/** The test app's BASE_URL and REDIRECT_URL hosts (test/support/test-app.ts). */
const OWN_HOSTS = ['api.test', 'qr.test'];
const ownHostname = (name: string) => {
  const check = normaliseHostname(name);
  return check.ok ? check.hostname : '';
};
/** Only printable ASCII reaches a real server as a header value; light-my-request refuses the rest. */
const sendable = (value: string) => /^[\x20-\x7e]*$/.test(value);

describe('hostname and Host-header fuzz (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, TLS_ASK_ENABLED: '1' });
    ({ key } = await t.newAccount());
  });
  afterAll(() => t?.close());

  it(`hostnames on POST /api/v1/domains: 201, 400 naming hostname or 409, never a 5xx (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(hostname, async (name) => {
        const res = await t.request({ method: 'POST', url: '/api/v1/domains', headers: auth(key), payload: { hostname: name } });
        expect([201, 400, 409]).toContain(res.statusCode);
        if (res.statusCode !== 201) {
          expect(errorShapeProblems(res)).toEqual([]);
          expect(res.json<{ errors?: Array<{ field: string }> }>().errors?.map((error) => error.field)).toEqual(['hostname']);
        }
        const ask = await t.request({ url: `/internal/tls/ask?domain=${encodeURIComponent(name)}` });
        // Nothing added is verified: only the service's own hosts (BASE_URL's, REDIRECT_URL's) get a yes.
        expect(ask.statusCode).toBe(OWN_HOSTS.includes(ownHostname(name)) ? 200 : 404);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 120_000);

  it(`Host and X-Forwarded-Host on the redirect host and the API: never a 5xx (seed ${SEED})`, async () => {
    const proxied = await t.startSibling({ TRUST_PROXY: '1' });
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/domains',
      headers: auth(key),
      payload: { hostname: `fuzz-${process.pid}.example` },
    });
    expectStatus(created, 201);
    await fc.assert(
      fc.asyncProperty(
        hostHeader.filter(sendable),
        hostHeader.filter(sendable),
        fc.constantFrom('/r/aZ3kP9qL', '/', '/api/v1/qrcodes', '/health/live', '/r/x/contact.vcf', '/docs'),
        async (host, forwarded, path) => {
          for (const target of [t, proxied]) {
            const res = await target.request({ url: path, headers: { host, 'x-forwarded-host': forwarded, ...auth(key) } });
            expect(res.statusCode).toBeLessThan(500);
            if (String(res.headers['content-type']).includes('json') && res.statusCode >= 400) expect(errorShapeProblems(res)).toEqual([]);
          }
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  }, 180_000);
});
