import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { errorShapeProblems } from '../support/error-shape';
import { auth, expectStatus, GENEROUS_RATE_LIMIT } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * GS1 Digital Link paths on the resolver (default host under /gs1 and a verified domain's root) and
 * in POST /api/v1/gs1/items: AIs known and unknown, every length, the GS1 character sets and what is
 * outside them, percent-encoding (valid, invalid, encoded slashes), qualifier order, query strings.
 * Never a 5xx; errors in the error shape. FUZZ_RUNS and FUZZ_SEED as in api-fuzz.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);

const ai = fc.oneof(
  fc.constantFrom(
    '01',
    '00',
    '414',
    '417',
    '8003',
    '8004',
    '8006',
    '8010',
    '8017',
    '8018',
    '253',
    '255',
    '401',
    '402',
    '22',
    '10',
    '21',
    '254',
    '7040',
    '8011',
    '8019',
    '17',
  ),
  fc.constantFrom('gtin', 'lot', 'ser', 'cpv', 'sscc', 'gln', '1', '999', '00000', ''),
  fc.stringMatching(/^\d{1,5}$/),
);
const value = fc.oneof(
  fc.constantFrom(
    '09506000134352',
    '9506000134352',
    '95060001343',
    '96385074',
    '09506000134353',
    '106141412345678908',
    '0950600013430000001',
    'LOT42',
  ),
  fc.stringMatching(/^\d{1,30}$/),
  fc.stringMatching(/^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]{1,25}$/).map(encodeURIComponent),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  fc.constantFrom('%', '%2', '%E0%A4%A', '%2F', '%00', '%C3%A9', '..', '.', '%2e%2e', '~', '@', '%FF', 'a%20b'),
  fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeURIComponent),
);
const segmentPairs = fc.array(fc.tuple(ai, value), { minLength: 0, maxLength: 5 }).map((pairs) => pairs.map(([a, v]) => `/${a}/${v}`).join(''));
const path = fc.oneof(
  segmentPairs,
  fc.tuple(segmentPairs, fc.constantFrom('/', '//', '/x', '')).map(([p, tail]) => `${p}${tail}`),
  fc.stringMatching(/^\/[A-Za-z0-9_-]{1,60}$/),
  fc.constantFrom('/CxFKk4XBoMpZyfGwuhG_g', '/AAAAAAAAAAAA', '/zzzzzzzzzzzz', `/01/${'9'.repeat(400)}`),
);
const query = fc.oneof(
  fc.constant(''),
  fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom('17', '10', '01', '3103', 'linkType', 'context', 'foo', '99', '7003'),
          fc.string({ maxLength: 6 }).map(encodeURIComponent),
        ),
        value,
      ),
    )
    .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  fc.constantFrom('?linkType=linkset', '?linkType=all', '?linkType=gs1:pip', '?linkType=%', '?17=271231', '?17=999999', '?&&=', '?linkType'),
);
const header = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom('application/linkset+json', 'text/html;q=0', '*/*', 'fr;q=abc', ';;;', 'en-GB,en;q=0.9'),
  fc.stringMatching(/^[\x20-\x7e]{0,40}$/),
);

describe('GS1 path fuzz (e2e)', () => {
  let t: TestApp;
  let key: string;
  const hostname = `fuzz-${process.pid}.brand.example`;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    let accountId: string;
    ({ key, accountId } = await t.newAccount());
    const now = new Date();
    await t.prisma.domain.create({
      data: {
        id: randomUUID(),
        accountId,
        hostname,
        status: 'verified',
        verificationToken: 'token',
        verifiedAt: now,
        createdAt: now,
        updatedAt: now,
      },
    });
    const links = [{ link_type: 'gs1:pip', href: 'https://brand.example/p?lot={10}&serial={21}', title: 'Product', hreflang: ['en'], default: true }];
    expectStatus(
      await t.request({ method: 'POST', url: '/api/v1/gs1/items', headers: auth(key), payload: { path: '/01/09506000134352', links } }),
      201,
    );
  });
  afterAll(() => t?.close());

  it('the resolver never answers 5xx, on the default host or a domain', async () => {
    await fc.assert(
      fc.asyncProperty(
        path,
        query,
        header,
        header,
        fc.constantFrom<'GET' | 'HEAD' | 'OPTIONS'>('GET', 'HEAD', 'OPTIONS'),
        fc.boolean(),
        async (p, q, accept, language, method, onDomain) => {
          const res = await t.request({
            method,
            url: `${onDomain ? '' : '/gs1'}${p.startsWith('/') ? p : `/${p}`}${q}`,
            headers: {
              host: onDomain ? hostname : 'qr.test',
              ...(accept !== undefined && { accept }),
              ...(language !== undefined && { 'accept-language': language }),
            },
          });
          if (res.statusCode >= 500) throw new Error(`${method} ${p}${q}: ${res.statusCode} ${res.body}`);
          // The resolver's errors are JSON in the error shape; a domain's other paths get the redirect host's pages.
          const resolver = !onDomain || String(res.headers['content-type']).startsWith('application/json');
          if (res.statusCode >= 400 && method === 'GET' && resolver) expect(errorShapeProblems(res)).toEqual([]);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  }, 120_000);

  it('creating items from fuzzed paths never answers 5xx: 201, 400 naming path, or 409', async () => {
    await fc.assert(
      fc.asyncProperty(path, async (p) => {
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/gs1/items',
          headers: auth(key),
          payload: { path: p, links: [{ link_type: 'gs1:pip', href: 'https://brand.example/', title: 'P', default: true }] },
        });
        expect([201, 400, 409]).toContain(res.statusCode);
        if (res.statusCode === 400) expect(res.json().errors).toEqual([expect.objectContaining({ field: 'path' })]);
      }),
      { numRuns: Math.ceil(RUNS / 3), seed: SEED },
    );
  }, 120_000);
});
