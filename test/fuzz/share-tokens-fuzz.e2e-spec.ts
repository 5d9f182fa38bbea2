import fc from 'fast-check';
import { auth, createQr, expectStatus, GENEROUS_RATE_LIMIT } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The public paths of sharing (docs/sharing.md): `/s/<token>`, `/s/<token>.json` and `/i/<token>`
 * with real tokens altered (a character changed, cut, lengthened, case flipped, percent-encoded),
 * and garbage (any characters, over-long, percent-encoded bytes, encoded slashes). Never a 5xx:
 * always 404, 410 or 400 (to a query it does not take); only the untouched tokens answer 200.
 * FUZZ_RUNS and FUZZ_SEED as in api-fuzz.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

describe('share token fuzz (e2e)', () => {
  let t: TestApp;
  const tokens: string[] = [];

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    const { key } = await t.newAccount();
    const code = await createQr(t, key, { is_dynamic: true });
    for (const kind of ['share-links', 'image-links']) {
      const res = await t.request({ method: 'POST', url: `/api/v1/qrcodes/${code.id}/${kind}`, headers: auth(key), payload: {} });
      expectStatus(res, 201);
      tokens.push(new URL(res.json<{ url: string }>().url).pathname.slice(3));
    }
    // A revoked image link: 410 is one of the answers.
    const revoked = await t.request({ method: 'POST', url: `/api/v1/qrcodes/${code.id}/image-links`, headers: auth(key), payload: {} });
    tokens.push(new URL(revoked.json<{ url: string }>().url).pathname.slice(3));
    expectStatus(await t.request({ method: 'DELETE', url: `/api/v1/image-links/${revoked.json().id}`, headers: auth(key) }), 200);
  });
  afterAll(() => t?.close());

  const altered = (token: string) =>
    fc.oneof(
      fc.tuple(fc.nat(token.length - 1), fc.constantFrom(...ALPHABET)).map(([at, c]) => token.slice(0, at) + c + token.slice(at + 1)),
      fc.nat(token.length - 1).map((at) => token.slice(0, at)),
      fc.string({ minLength: 1, maxLength: 40 }).map((tail) => token + encodeURIComponent(tail)),
      fc.constant(token.toUpperCase()),
      fc.constant([...token].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('')),
      fc.constant(`${token.slice(0, 20)}%2F${token.slice(23)}`),
    );
  const garbage = fc.oneof(
    fc.string({ maxLength: 60 }).map(encodeURIComponent),
    fc.stringMatching(/^[A-Za-z0-9_-]{44}$/),
    fc.stringMatching(/^[A-Za-z0-9_=+/-]{1,200}$/).map((text) => text.replace(/\//g, '%2F')),
    fc.integer({ min: 1_000, max: 20_000 }).map((length) => 'A'.repeat(length)),
    fc
      .array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 30 })
      .map((bytes) => bytes.map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
    fc.constantFrom('%', '%zz', '%E0%A4%A', '..', '%2e%2e', '%00', '.json', 'x.json.json'),
  );

  it('never answers 5xx: 404, 410 or 400, and 200 only for an untouched token', async () => {
    const segment = fc.oneof(garbage, ...tokens.map(altered));
    await fc.assert(
      fc.asyncProperty(segment, fc.constantFrom('/s/', '/i/'), fc.boolean(), fc.boolean(), async (token, prefix, json, query) => {
        const url = `${prefix}${token}${json && prefix === '/s/' ? '.json' : ''}${query ? '?size=1' : ''}`;
        const res = await t.request({ method: 'GET', url });
        if (res.statusCode >= 500) throw new Error(`GET ${url.slice(0, 200)}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        // A token spelt with percent-escapes is the same token once the path is decoded.
        const untouched = tokens.includes(decoded(token));
        if (!untouched) expect([400, 404, 410]).toContain(res.statusCode);
        // 400 only to a query: an image link takes none, a stats page none it does not know.
        if (res.statusCode === 400) expect(query).toBe(true);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('answers the untouched tokens (the fuzz above ran against live links)', async () => {
    expect((await t.request({ method: 'GET', url: `/s/${tokens[0]}` })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/i/${tokens[1]}` })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/i/${tokens[2]}` })).statusCode).toBe(410);
  });
});
