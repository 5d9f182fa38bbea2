import fc from 'fast-check';
import { errorShapeProblems } from '../support/error-shape';
import { auth, expectStatus, GENEROUS_RATE_LIMIT } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Tag names (on codes, the tags API, the list's tag filters, analytics) and bulk edits' change sets
 * and selections, generated: never a 5xx, every error in the error shape, a 400 naming a field.
 * Bulk edits run dry (nothing written, whatever the count) or on ids of a small set of codes. FUZZ_RUNS
 * and FUZZ_SEED as in api-fuzz.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 50);
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);

const tagName = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 55 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    'a|b',
    'a,b',
    '\u0000',
    '\u200b',
    'x'.repeat(50),
    'x'.repeat(51),
    'İstanbul',
    'ǅ',
    'ß',
    'Σ',
    'spring',
    'SPRING',
    '😀'.repeat(26),
  ),
);
const jsonish = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.string({ maxLength: 10 }),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
);
const tagList = fc.oneof(fc.array(tagName, { maxLength: 25 }), jsonish);
const url = fc.oneof(
  fc.webUrl(),
  fc.constantFrom('https://old.example/', 'http://', 'ftp://x/', 'https://example.com/'),
  fc.string({ maxLength: 30 }),
);
const set = fc.record(
  {
    status: fc.oneof(fc.constantFrom('active', 'paused', 'expired', 'blocked'), jsonish),
    folder_id: fc.oneof(fc.uuid(), jsonish),
    expires_at: fc.oneof(
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
      jsonish,
    ),
    domain_id: fc.oneof(fc.uuid(), jsonish),
    utm: fc.oneof(
      fc.dictionary(fc.constantFrom('source', 'medium', 'campaign', 'colour'), fc.oneof(fc.string({ maxLength: 120 }), jsonish)),
      jsonish,
    ),
    style: fc.oneof(fc.constant({ dotsOptions: { color: '#000000' } }), fc.dictionary(fc.string({ maxLength: 8 }), jsonish), jsonish),
    brand_kit_id: fc.uuid(),
  },
  { requiredKeys: [] },
);
const filter = fc.record(
  {
    tag: tagList,
    tag_any: tagList,
    search: fc.oneof(fc.string({ maxLength: 210 }), jsonish),
    status: fc.oneof(fc.constantFrom('active', 'paused', 'expired'), jsonish),
    type: fc.oneof(fc.constantFrom('url', 'text', 'nope'), jsonish),
    is_dynamic: fc.oneof(fc.constantFrom('true', 'false'), jsonish),
    folder_id: fc.oneof(fc.uuid(), jsonish),
    page: fc.integer(),
  },
  { requiredKeys: [] },
);
const changeSet = fc.record(
  {
    set: fc.oneof(set, jsonish),
    add_tags: tagList,
    remove_tags: tagList,
    replace_target: fc.oneof(fc.record({ from: url, to: url }, { requiredKeys: [] }), jsonish),
  },
  { requiredKeys: [] },
);

describe('tag names and bulk edit fuzz (e2e)', () => {
  let t: TestApp;
  let key: string;
  let codeIds: string[];

  beforeAll(async () => {
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT });
    ({ key } = await t.newAccount());
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/qrcodes/bulk',
      headers: auth(key),
      payload: {
        qrcodes: [
          { type: 'url', content: { url: 'https://old.example/a' }, is_dynamic: true, tags: ['spring'] },
          { type: 'url', content: { url: 'https://example.com/b' }, tags: ['spring', 'store'] },
          { type: 'text', content: { text: 'hello' }, tags: ['store'] },
        ],
      },
    });
    expectStatus(created, 201);
    codeIds = created.json<{ created: Array<{ id: string }> }>().created.map((code) => code.id);
  });
  afterAll(() => t?.close());

  const expectNo5xx = (res: Awaited<ReturnType<TestApp['request']>>, allowed: number[]) => {
    expect(allowed).toContain(res.statusCode);
    if (res.statusCode >= 400) {
      expect(errorShapeProblems(res)).toEqual([]);
      if (res.statusCode === 400) expect(res.json<{ errors?: unknown[] }>().errors?.length).toBeGreaterThan(0);
    }
  };

  it(`tag names on codes, the tags API, the list and analytics: never a 5xx (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(tagList, tagName, async (tags, name) => {
        expectNo5xx(await t.request({ method: 'PUT', url: `/api/v1/qrcodes/${codeIds[2]}`, headers: auth(key), payload: { tags } }), [200, 400]);
        expectNo5xx(await t.request({ method: 'POST', url: '/api/v1/tags', headers: auth(key), payload: { name } }), [201, 400, 409]);
        const query = new URLSearchParams([...(Array.isArray(tags) ? tags : [String(tags)]).map((tag) => ['tag_any', String(tag)]), ['tag', name]]);
        expectNo5xx(await t.request({ method: 'GET', url: `/api/v1/qrcodes?${query}`, headers: auth(key) }), [200, 400]);
        expectNo5xx(
          await t.request({ method: 'GET', url: `/api/v1/analytics?${new URLSearchParams({ tag: name })}`, headers: auth(key) }),
          [200, 400],
        );
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 300_000);

  it(`bulk edits' selections and change sets: never a 5xx (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(filter, jsonish), changeSet, fc.boolean(), async (selection, change, byIds) => {
        const chosen = byIds ? { ids: codeIds } : { filter: selection };
        const update = await t.request({
          method: 'POST',
          url: '/api/v1/qrcodes/bulk-update?dry_run=true',
          headers: auth(key),
          payload: { ...chosen, ...change },
        });
        expectNo5xx(update, [200, 400, 404]);
        if (byIds) {
          const real = await t.request({ method: 'POST', url: '/api/v1/qrcodes/bulk-update', headers: auth(key), payload: { ...chosen, ...change } });
          expectNo5xx(real, [200, 400]);
        }
        const remove = await t.request({
          method: 'POST',
          url: '/api/v1/qrcodes/bulk-delete?dry_run=true',
          headers: auth(key),
          payload: { filter: selection },
        });
        expectNo5xx(remove, [200, 400, 404]);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 300_000);
});
