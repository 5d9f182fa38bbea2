import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app';
import { auth, createFolder, createQr, expectFieldErrors, expectStatus, GENEROUS_RATE_LIMIT, insertScanEvent, updateQr } from './support/factories';

/** The list's tag filters (all of, any of) with every other filter and the search, and analytics by tag (docs/tags-and-bulk-edits.md). */
describe('tag filters (e2e)', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  let otherKey: string;
  let storesFolder: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT });
    ({ key, accountId } = await t.newAccount());
    ({ key: otherKey } = await t.newAccount());
    storesFolder = (await createFolder(t, key, 'Stores')).id as string;
    const codes: Array<[string, Record<string, unknown>]> = [
      ['springStore', { name: 'Spring window', tags: ['Spring', 'store-12'], folder_id: storesFolder }],
      ['springOnly', { name: 'Spring flyer', tags: ['spring'] }],
      ['storeOnly', { name: 'Store door', tags: ['STORE-12'], folder_id: storesFolder }],
      ['autumnStore', { name: 'Autumn window', tags: ['autumn', 'store-12'], folder_id: storesFolder, is_dynamic: true }],
      ['untagged', { name: 'Plain window' }],
    ];
    for (const [label, overrides] of codes) ids[label] = (await createQr(t, key, overrides)).id as string;
    // Another account's code with the same tag name never shows.
    await createQr(t, otherKey, { name: 'Spring window', tags: ['spring', 'store-12'] });
  });
  afterAll(() => t?.close());

  const list = async (query: string, apiKey = key) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/qrcodes?limit=100&${query}`, headers: auth(apiKey) });
    expectStatus(res, 200);
    const body = res.json<{ data: Array<{ id: string }>; pagination: { total: number } }>();
    const labels = body.data.map((code) => Object.keys(ids).find((label) => ids[label] === code.id) ?? code.id).sort();
    expect(body.pagination.total).toBe(labels.length);
    return labels;
  };

  it('tag= keeps the codes carrying every tag named, in any case', async () => {
    expect(await list('tag=spring')).toEqual(['springOnly', 'springStore']);
    expect(await list('tag=SPRING&tag=Store-12')).toEqual(['springStore']);
    expect(await list('tag=store-12')).toEqual(['autumnStore', 'springStore', 'storeOnly']);
    // A name that is no tag of the account: nothing carries it (and every other name does not help).
    expect(await list('tag=spring&tag=winter')).toEqual([]);
  });

  it('tag_any= keeps the codes carrying at least one, and combines with tag=', async () => {
    expect(await list('tag_any=autumn&tag_any=Spring')).toEqual(['autumnStore', 'springOnly', 'springStore']);
    expect(await list('tag_any=autumn&tag_any=winter')).toEqual(['autumnStore']);
    expect(await list('tag_any=winter')).toEqual([]);
    expect(await list('tag=store-12&tag_any=autumn&tag_any=spring')).toEqual(['autumnStore', 'springStore']);
  });

  it('combines with the search, the folder, the type, is_dynamic and the status', async () => {
    expect(await list('tag=store-12&search=window')).toEqual(['autumnStore', 'springStore']);
    expect(await list('tag_any=spring&search=flyer')).toEqual(['springOnly']);
    expect(await list(`tag=spring&folder_id=${storesFolder}`)).toEqual(['springStore']);
    expect(await list('tag=store-12&is_dynamic=true')).toEqual(['autumnStore']);
    expect(await list('tag=store-12&type=url&sort=name-asc')).toEqual(['autumnStore', 'springStore', 'storeOnly']);
    expectStatus(await updateQr(t, key, ids.autumnStore, { status: 'paused' }), 200);
    expect(await list('tag=store-12&status=paused')).toEqual(['autumnStore']);
    expect(await list('tag=store-12&status=active&search=window')).toEqual(['springStore']);
    expectStatus(await updateQr(t, key, ids.autumnStore, { status: 'active' }), 200);
    expect(await list('tag=store-12&status=active&search=window')).toEqual(['autumnStore', 'springStore']);
  });

  it('follows the tags as they change (an update, a rename)', async () => {
    expectStatus(await updateQr(t, key, ids.untagged, { tags: ['Spring'] }), 200);
    expect(await list('tag=spring')).toEqual(['springOnly', 'springStore', 'untagged']);
    expectStatus(await t.request({ method: 'PATCH', url: '/api/v1/tags/spring', headers: auth(key), payload: { name: 'Spring 27' } }), 200);
    expect(await list('tag=spring%2027')).toEqual(['springOnly', 'springStore', 'untagged']);
    expect(await list('tag=spring')).toEqual([]);
    expectStatus(await t.request({ method: 'PATCH', url: '/api/v1/tags/spring%2027', headers: auth(key), payload: { name: 'spring' } }), 200);
    expectStatus(await updateQr(t, key, ids.untagged, { tags: [] }), 200);
  });

  it('shows a folder-restricted key only the tagged codes of its folders', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/admin/api-keys',
      headers: { 'x-admin-token': ADMIN_TOKEN },
      payload: { name: 'store key', account_id: accountId, folder_ids: [storesFolder] },
    });
    const restrictedKey = created.json<{ key: string }>().key;
    expect(await list('tag=spring', restrictedKey)).toEqual(['springStore']);
    expect(await list('tag_any=spring&tag_any=autumn', restrictedKey)).toEqual(['autumnStore', 'springStore']);
  });

  it.each([
    ['tag=a%7Cb', 'tag[0]'],
    [`tag=${'x'.repeat(51)}`, 'tag[0]'],
    ['tag_any=ok&tag_any=%20%20', 'tag_any[1]'],
    [Array.from({ length: 21 }, (_, index) => `tag=t${index}`).join('&'), 'tag'],
  ])('refuses %s naming %s', async (query, field) => {
    expectFieldErrors(await t.request({ method: 'GET', url: `/api/v1/qrcodes?${query}`, headers: auth(key) }), field);
  });

  it('narrows the account analytics to the codes carrying a tag', async () => {
    await insertScanEvent(t, ids.springStore);
    await insertScanEvent(t, ids.springOnly);
    await insertScanEvent(t, ids.storeOnly);
    const analytics = async (query: string) => {
      const res = await t.request({ method: 'GET', url: `/api/v1/analytics?${query}`, headers: auth(key) });
      expectStatus(res, 200);
      return res.json<{ totals: { scans: number }; top_codes: Array<{ id: string }>; filters: { tag: string | null } }>();
    };
    const all = await analytics('');
    expect(all.totals.scans).toBe(3);
    expect(all.filters.tag).toBeNull();
    const spring = await analytics('tag=SPRING');
    expect(spring.totals.scans).toBe(2);
    expect(spring.filters.tag).toBe('SPRING');
    expect(spring.top_codes.map((code) => code.id).sort()).toEqual([ids.springOnly, ids.springStore].sort());
    const stores = await analytics(`tag=store-12&folder_id=${storesFolder}`);
    expect(stores.totals.scans).toBe(2);
    expect((await analytics('tag=winter')).totals.scans).toBe(0);
    expectFieldErrors(await t.request({ method: 'GET', url: '/api/v1/analytics?tag=a,b', headers: auth(key) }), 'tag');
    const chart = await t.request({ method: 'GET', url: '/api/v1/analytics/chart.svg?tag=spring', headers: auth(key) });
    expectStatus(chart, 200);
  });
});
