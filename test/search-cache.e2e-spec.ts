import { MetricsService } from '../src/infra/observability/metrics.service';
import { ScanBuffer } from '../src/scans/scan-buffer.service';
import { auth, createFolder, createQr, expectStatus, GENEROUS_RATE_LIMIT, qrInput, updateQr } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

type ListBody = { data: Array<Record<string, any>>; pagination: { total: number; total_pages: number } };

/**
 * Searches are cached under the account's version (SearchResultCache): these prove the cache is used
 * and that it can never show a result from before a write of the account.
 */
describe('search results cache (e2e)', () => {
  let t: TestApp;
  let key: string;
  let otherKey: string;

  const search = async (query: string, apiKey = key): Promise<ListBody> => {
    const res = await t.request({ method: 'GET', url: `/api/v1/qrcodes?${query}`, headers: auth(apiKey) });
    expectStatus(res, 200);
    return res.json();
  };
  const cacheCount = async (result: 'hit' | 'miss') =>
    (await t.app.get(MetricsService).searchCache.get()).values.find((value) => value.labels.result === result)?.value ?? 0;
  const names = (body: ListBody) => body.data.map((item) => item.name).sort();

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key } = await t.newAccount());
    ({ key: otherKey } = await t.newAccount());
    for (const name of ['Zebra one', 'Zebra two', 'Lion']) await createQr(t, key, { name });
    await createQr(t, otherKey, { name: 'Zebra of another account' });
  });
  afterAll(() => t.close());

  it('answers a repeated search from the cache, with the rows read fresh', async () => {
    const first = await search('search=zebra');
    const [hits, misses] = [await cacheCount('hit'), await cacheCount('miss')];
    const second = await search('search=zebra');
    expect(await cacheCount('hit')).toBe(hits + 2); // the page and the total
    expect(await cacheCount('miss')).toBe(misses);
    expect(second).toEqual({ ...first, request_id: expect.any(String) });
    expect(names(second)).toEqual(['Zebra one', 'Zebra two']);
    expect(second.pagination.total).toBe(2);

    // Scans are not a write of the code list: the cached ids stay, the rows (scans) are current.
    const dynamic = await createQr(t, key, { name: 'Zebra dynamic', is_dynamic: true });
    await search('search=zebra+dynamic');
    await t.request({ method: 'GET', url: `/r/${dynamic.short_code}`, headers: { 'user-agent': BROWSER } });
    await t.app.get(ScanBuffer).flush();
    const hitsBefore = await cacheCount('hit');
    const after = await search('search=zebra+dynamic');
    expect(await cacheCount('hit')).toBe(hitsBefore + 2);
    expect(after.data.map((item) => item.scans)).toEqual([1]);
  });

  it('shows every kind of write in the next search at once', async () => {
    const term = 'search=okapi';
    const expectNames = async (query: string, expected: string[]) => {
      const body = await search(query);
      expect(names(body)).toEqual(expected);
      expect(body.pagination.total).toBe(expected.length);
    };
    await expectNames(term, []);

    const a = await createQr(t, key, { name: 'Okapi A' });
    await expectNames(term, ['Okapi A']);

    const bulk = await t.request({
      method: 'POST',
      url: '/api/v1/qrcodes/bulk',
      headers: auth(key),
      payload: { qrcodes: [qrInput('text', { name: 'Okapi B' }), qrInput('url', { name: 'Okapi C' })] },
    });
    expectStatus(bulk, 201);
    await expectNames(term, ['Okapi A', 'Okapi B', 'Okapi C']);

    await updateQr(t, key, a.id, { name: 'Renamed' });
    await expectNames(term, ['Okapi B', 'Okapi C']);

    const folder = await createFolder(t, key, 'Okapi folder');
    const c = bulk.json().created.find((item: Record<string, any>) => item.name === 'Okapi C');
    await expectNames(`${term}&folder_id=${folder.id}`, []);
    await updateQr(t, key, c.id, { folder_id: folder.id });
    await expectNames(`${term}&folder_id=${folder.id}`, ['Okapi C']);
    expectStatus(await t.request({ method: 'DELETE', url: `/api/v1/folders/${folder.id}`, headers: auth(key) }), 200);
    await expectNames(`${term}&folder_id=${folder.id}`, []);

    await updateQr(t, key, c.id, { is_dynamic: true });
    await expectNames(`${term}&is_dynamic=true`, ['Okapi C']);

    expectStatus(await t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${c.id}`, headers: auth(key) }), 200);
    await expectNames(term, ['Okapi B']);
    await expectNames(`${term}&is_dynamic=true`, []);
  });

  it('keeps accounts apart: the same search of another account has its own results', async () => {
    await search('search=zebra');
    expect(names(await search('search=zebra', otherKey))).toEqual(['Zebra of another account']);
    await createQr(t, otherKey, { name: 'Zebra again' });
    expect(names(await search('search=zebra', otherKey))).toEqual(['Zebra again', 'Zebra of another account']);
    // A write of the other account does not touch this one's cached results.
    const hits = await cacheCount('hit');
    expect(names(await search('search=zebra'))).toEqual(['Zebra dynamic', 'Zebra one', 'Zebra two']);
    expect(await cacheCount('hit')).toBe(hits + 2);
  });

  it('answers a burst of different first searches, each with its own exact result (they queue for search slots)', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `Burst${String.fromCharCode(97 + i)} code`);
    for (const name of names) await createQr(t, key, { name });
    const results = await Promise.all(names.map((name) => search(`search=${encodeURIComponent(name.split(' ')[0])}`)));
    expect(results.map((body) => body.data.map((item) => item.name))).toEqual(names.map((name) => [name]));
    expect(results.every((body) => body.pagination.total === 1)).toBe(true);
  });

  it('pages through cached results without overlap, the total shared by every page', async () => {
    for (let i = 0; i < 5; i++) await createQr(t, key, { name: `Gnu ${i}` });
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const body = await search(`search=gnu&limit=2&page=${page}&sort=name-asc`);
      expect(body.pagination).toMatchObject({ total: 5, total_pages: 3 });
      seen.push(...body.data.map((item) => item.name));
    }
    expect(seen).toEqual(['Gnu 0', 'Gnu 1', 'Gnu 2', 'Gnu 3', 'Gnu 4']);
  });
});

describe('search results cache off (SEARCH_CACHE_SECONDS=0, e2e)', () => {
  it('counts every search afresh', async () => {
    const t = await startTestApp({ ...GENEROUS_RATE_LIMIT, SEARCH_CACHE_SECONDS: '0' });
    try {
      const { key } = await t.newAccount();
      await createQr(t, key, { name: 'Zebra' });
      const metric = t.app.get(MetricsService).searchCache;
      const before = (await metric.get()).values.reduce((sum, value) => sum + value.value, 0);
      for (let i = 0; i < 2; i++) {
        const res = await t.request({ method: 'GET', url: '/api/v1/qrcodes?search=zebra', headers: auth(key) });
        expect(res.json().pagination.total).toBe(1);
      }
      expect((await metric.get()).values.reduce((sum, value) => sum + value.value, 0)).toBe(before);
    } finally {
      await t.close();
    }
  });
});
