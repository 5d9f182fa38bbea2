import { RedisConnection } from '../src/infra/redis/redis.module';
import {
  auth,
  CONTENT_SAMPLES,
  contentOf,
  countCodes,
  createFolder,
  expectErrorBody,
  expectFieldErrors,
  expectStatus,
  GENEROUS_RATE_LIMIT,
  getQr,
  ISO_UTC_MS,
  QR_TYPES,
  qrInput,
  SHORT_CODE,
  UUID,
} from './support/factories';
import { HAS_REDIS, itWhen } from './support/environment';
import { startTestApp, type TestApp } from './support/test-app';

const STATIC_ITEM_KEYS = ['id', 'type', 'name', 'content_string', 'content_fields', 'tags', 'is_dynamic', 'image_url', 'created_at'].sort();
const DYNAMIC_ITEM_KEYS = [...STATIC_ITEM_KEYS, 'short_code', 'dynamic_url'].sort();

type BulkBody = {
  created: Array<Record<string, any>>;
  errors: Array<{ index: number; errors: Array<{ field: string; message: string }> }>;
  summary: Record<string, number>;
  request_id: string;
};

function expectSummaryInvariants(body: BulkBody, submitted: number) {
  const { summary } = body;
  expect(Object.keys(summary).sort()).toEqual(['dynamic_created', 'static_created', 'total_created', 'total_failed', 'total_submitted']);
  for (const value of Object.values(summary)) expect(Number.isInteger(value)).toBe(true);
  expect(summary.total_submitted).toBe(submitted);
  expect(summary.total_submitted).toBe(summary.total_created + summary.total_failed);
  expect(summary.dynamic_created + summary.static_created).toBe(summary.total_created);
  expect(summary.total_created).toBe(body.created.length);
  expect(summary.total_failed).toBe(body.errors.length);
  expect(summary.dynamic_created).toBe(body.created.filter((item) => item.is_dynamic).length);
}

describe('bulk create (e2e)', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  let otherKey: string;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key, accountId } = await t.newAccount());
    ({ key: otherKey } = await t.newAccount());
  });
  afterAll(() => t?.close());

  const bulk = (payload: unknown, apiKey = key) =>
    t.request({ method: 'POST', url: '/api/v1/qrcodes/bulk', headers: auth(apiKey), payload: payload as object });

  it('creates the valid items of a mixed batch and reports the invalid ones by index and field', async () => {
    const mine = await createFolder(t, key, 'Bulk target');
    const theirs = await createFolder(t, otherKey, 'Not yours');
    const before = await countCodes(t, accountId);
    const items = [
      qrInput('url', { name: 'first' }), // 0 ok, static
      { type: 'url' }, // 1 content missing
      qrInput('wifi', { is_dynamic: true, name: 'second' }), // 2 ok, dynamic
      { type: 'url', content: { url: 'javascript:alert(1)' } }, // 3 unsafe target
      'not an object', // 4
      qrInput('text', { folder_id: mine.id, style: { dotsOptions: { color: '#000000' } } }), // 5 ok, static
      { type: 'url', content: { url: 'https://example.com', utm: 'x' } }, // 6 unknown content field
      qrInput('url', { style: { dotsOptions: { color: 'black' } } }), // 7 bad colour
      qrInput('url', { folder_id: theirs.id }), // 8 another account's folder
      qrInput('geo', { name: 'n'.repeat(101) }), // 9 name too long
      qrInput('url', { extra: true }), // 10 unknown top-level field
      { type: 'hologram', content: {} }, // 11 unknown type
      { type: 'text', content: { text: 'é'.repeat(2000) } }, // 12 too large for a static code
      { type: 'text', content: { text: 'é'.repeat(2000) }, is_dynamic: true }, // 13 ok as dynamic
      null, // 14
      [qrInput('url')], // 15 an array is not an item
    ];
    const res = await bulk({ qrcodes: items });
    expectStatus(res, 201);
    const body: BulkBody = res.json();
    expect(Object.keys(body).sort()).toEqual(['created', 'errors', 'request_id', 'summary']);
    expect(body.request_id).toBe(res.headers['x-request-id']);

    expect(body.errors.map((error) => error.index)).toEqual([1, 3, 4, 6, 7, 8, 9, 10, 11, 12, 14, 15]);
    const fieldsAt = (index: number) => body.errors.find((error) => error.index === index)!.errors.map((error) => error.field);
    expect(fieldsAt(1)).toEqual(expect.arrayContaining(['content']));
    expect(fieldsAt(3)).toEqual(['content.url']);
    expect(fieldsAt(4)).toHaveLength(1);
    expect(fieldsAt(6)).toEqual(['content.utm']);
    expect(fieldsAt(7)).toEqual(['style.dotsOptions.color']);
    expect(fieldsAt(8)).toEqual(['folder_id']);
    expect(fieldsAt(9)).toEqual(['name']);
    expect(fieldsAt(10)).toEqual(['extra']);
    expect(fieldsAt(11)).toEqual(expect.arrayContaining(['type']));
    expect(fieldsAt(12)).toEqual(['content']);
    expect(fieldsAt(14)).toHaveLength(1);
    expect(fieldsAt(15)).toHaveLength(1);
    for (const error of body.errors) {
      expect(Object.keys(error).sort()).toEqual(['errors', 'index']);
      for (const fieldError of error.errors) expect(fieldError).toEqual({ field: expect.any(String), message: expect.any(String) });
    }

    expect(body.created.map((item) => item.name)).toEqual(['first', 'second', 'text QR Code', 'text QR Code']);
    const [first, second, third, fourth] = body.created;
    expect(Object.keys(first).sort()).toEqual(STATIC_ITEM_KEYS);
    expect(Object.keys(second).sort()).toEqual(DYNAMIC_ITEM_KEYS);
    expect(Object.keys(third).sort()).toEqual(STATIC_ITEM_KEYS);
    expect(Object.keys(fourth).sort()).toEqual(DYNAMIC_ITEM_KEYS);
    expect(first).toEqual({
      id: expect.stringMatching(UUID),
      type: 'url',
      name: 'first',
      content_string: CONTENT_SAMPLES.url.contentString,
      content_fields: CONTENT_SAMPLES.url.content,
      tags: [],
      is_dynamic: false,
      image_url: `http://api.test/api/v1/qrcodes/${first.id}/image`,
      created_at: expect.stringMatching(ISO_UTC_MS),
    });
    expect(second).toMatchObject({ type: 'wifi', is_dynamic: true, content_string: CONTENT_SAMPLES.wifi.contentString });
    expect(second.short_code).toMatch(SHORT_CODE);
    expect(second.dynamic_url).toBe(`http://qr.test/r/${second.short_code}`);
    expect(fourth.short_code).not.toBe(second.short_code);

    expect(body.summary).toEqual({ total_submitted: 16, total_created: 4, total_failed: 12, dynamic_created: 2, static_created: 2 });
    expectSummaryInvariants(body, items.length);

    expect(await countCodes(t, accountId)).toBe(before + 4);
    expect(await t.prisma.qrCode.count({ where: { folderId: theirs.id } })).toBe(0);
    const inFolder = (await getQr(t, key, third.id)).json();
    expect(inFolder).toMatchObject({ folder_id: mine.id, style_config: '{"dotsOptions":{"color":"#000000"}}', status: 'active', scans: 0 });
    const stored = await t.prisma.qrCode.findUniqueOrThrow({ where: { id: second.id } });
    expect(stored).toMatchObject({ accountId, isDynamic: true, shortCode: second.short_code });
  });

  it('creates every one of the nine types in one batch, in submission order', async () => {
    const res = await bulk({ qrcodes: QR_TYPES.map((type, index) => qrInput(type, { is_dynamic: index % 2 === 0 })) });
    expectStatus(res, 201);
    const body: BulkBody = res.json();
    expect(body.errors).toEqual([]);
    expect(body.created.map((item) => item.type)).toEqual([...QR_TYPES]);
    for (const item of body.created) {
      const sample = CONTENT_SAMPLES[item.type as keyof typeof CONTENT_SAMPLES];
      expect(item.content_string).toBe(sample.contentString);
      expect(item.content_fields).toEqual(sample.content);
    }
    expect(body.summary).toEqual({ total_submitted: 9, total_created: 9, total_failed: 0, dynamic_created: 5, static_created: 4 });
    expectSummaryInvariants(body, 9);
  });

  it('accepts 50 items', async () => {
    const before = await countCodes(t, accountId);
    const res = await bulk({
      qrcodes: Array.from({ length: 50 }, (_, index) => qrInput('text', { content: { text: `item ${index}` }, is_dynamic: index < 10 })),
    });
    expectStatus(res, 201);
    const body: BulkBody = res.json();
    expect(body.created.map((item) => item.content_string)).toEqual(Array.from({ length: 50 }, (_, index) => `item ${index}`));
    expect(body.summary).toEqual({ total_submitted: 50, total_created: 50, total_failed: 0, dynamic_created: 10, static_created: 40 });
    expect(new Set(body.created.filter((item) => item.is_dynamic).map((item) => item.short_code)).size).toBe(10);
    expect(await countCodes(t, accountId)).toBe(before + 50);
  });

  it('answers 201 with created [] when every item is invalid', async () => {
    const before = await countCodes(t, accountId);
    const res = await bulk({ qrcodes: [{ type: 'url' }, 42, { type: 'wifi', content: contentOf('url') }] });
    expectStatus(res, 201);
    const body: BulkBody = res.json();
    expect(body.created).toEqual([]);
    expect(body.errors.map((error) => error.index)).toEqual([0, 1, 2]);
    expect(body.errors[2].errors.map((error) => error.field)).toEqual(expect.arrayContaining(['content.url', 'content.ssid']));
    expect(body.summary).toEqual({ total_submitted: 3, total_created: 0, total_failed: 3, dynamic_created: 0, static_created: 0 });
    expect(await countCodes(t, accountId)).toBe(before);
  });

  it.each([
    ['no items', { qrcodes: [] }],
    ['51 items', { qrcodes: Array.from({ length: 51 }, () => qrInput('url')) }],
    ['an object instead of an array', { qrcodes: qrInput('url') }],
    ['a string instead of an array', { qrcodes: 'url' }],
    ['no qrcodes field', {}],
    ['null', { qrcodes: null }],
  ])('400 naming qrcodes for %s, creating nothing', async (_name, payload) => {
    const before = await countCodes(t, accountId);
    expectFieldErrors(await bulk(payload), 'qrcodes');
    expect(await countCodes(t, accountId)).toBe(before);
  });

  it('400 for an unknown top-level field', async () => {
    const before = await countCodes(t, accountId);
    expectFieldErrors(await bulk({ qrcodes: [qrInput('url')], dry_run: true }), 'dry_run');
    expect(await countCodes(t, accountId)).toBe(before);
  });

  it('401 without a key', async () => {
    expectErrorBody(await t.request({ method: 'POST', url: '/api/v1/qrcodes/bulk', payload: { qrcodes: [qrInput('url')] } }), 401);
  });

  describe('rate limit: a bulk request counts once (RATE_LIMIT_PER_MINUTE=3)', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await startTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    });
    afterAll(() => limited?.close());

    it('deducts one per write request whatever its size; the 4th write is 429; reads have their own budget', async () => {
      const { key: limitedKey, accountId: limitedAccount } = await limited.newAccount();
      const headers = auth(limitedKey);

      const first = await limited.request({
        method: 'POST',
        url: '/api/v1/qrcodes/bulk',
        headers,
        payload: { qrcodes: Array.from({ length: 50 }, () => qrInput('url')) },
      });
      expectStatus(first, 201);
      expect(first.json().summary.total_created).toBe(50);
      expect(first.headers['x-ratelimit-limit']).toBe('3');
      expect(first.headers['x-ratelimit-remaining']).toBe('2');
      expect(Number(first.headers['x-ratelimit-reset'])).toBeGreaterThan(0);

      const second = await limited.request({ method: 'POST', url: '/api/v1/qrcodes', headers, payload: qrInput('text') });
      expectStatus(second, 201);
      expect(second.headers['x-ratelimit-remaining']).toBe('1');

      const third = await limited.request({ method: 'PUT', url: `/api/v1/qrcodes/${second.json().id}`, headers, payload: { name: 'renamed' } });
      expectStatus(third, 200);
      expect(third.headers['x-ratelimit-remaining']).toBe('0');

      const fourth = await limited.request({
        method: 'POST',
        url: '/api/v1/qrcodes/bulk',
        headers,
        payload: { qrcodes: [qrInput('url')] },
      });
      const body = expectErrorBody(fourth, 429);
      expect(body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
      expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(fourth.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(fourth.headers['x-ratelimit-remaining']).toBe('0');
      expect(fourth.headers['x-ratelimit-limit']).toBe('3');
      expect(await countCodes(limited, limitedAccount)).toBe(51);

      const deleted = await limited.request({ method: 'DELETE', url: `/api/v1/qrcodes/${second.json().id}`, headers });
      expectErrorBody(deleted, 429);
      expect(await countCodes(limited, limitedAccount)).toBe(51);

      const read = await limited.request({ method: 'GET', url: '/api/v1/qrcodes?limit=1', headers });
      expectStatus(read, 200);
      expect(read.json().pagination.total).toBe(51);
      expect(read.headers['x-ratelimit-limit']).toBe('30');
      expect(read.headers['x-ratelimit-remaining']).toBe('29');
      expectStatus(await limited.request({ method: 'GET', url: `/api/v1/qrcodes/${second.json().id}`, headers }), 200);

      // The budget is per account: another account still writes.
      const { key: freshKey } = await limited.newAccount();
      const fresh = await limited.request({ method: 'POST', url: '/api/v1/qrcodes', headers: auth(freshKey), payload: qrInput('url') });
      expectStatus(fresh, 201);
      expect(fresh.headers['x-ratelimit-remaining']).toBe('2');
    });

    itWhen(HAS_REDIS)('keeps counting after Redis forgets its scripts (a Redis restart): the budget script is loaded again', async () => {
      const redis = limited.app.get(RedisConnection).client!;
      const { key: scriptKey } = await limited.newAccount();
      const read = () => limited.request({ method: 'GET', url: '/api/v1/qrcodes?limit=1', headers: auth(scriptKey) });
      expect((await read()).headers['x-ratelimit-remaining']).toBe('29');
      await redis.script('FLUSH');
      const after = await read();
      expectStatus(after, 200);
      expect(after.headers['x-ratelimit-remaining']).toBe('28');
    });
  });
});
