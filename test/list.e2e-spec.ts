import {
  auth,
  contentOf,
  createFolder,
  createQr,
  expectErrorBody,
  expectFieldErrors,
  expectStatus,
  GENEROUS_RATE_LIMIT,
  ISO_UTC_MS,
  qrInput,
  SHORT_CODE,
  updateQr,
} from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

type Item = Record<string, any>;
const SORTS = ['newest', 'oldest', 'name-asc', 'name-desc'] as const;
/** A dynamic code's smart-link settings (docs/smart-links.md). */
const LINK_SETTING_KEYS = ['rules', 'max_scans', 'fallback_url', 'has_password', 'utm', 'scan_retention_days', 'preview'];
const LIST_ITEM_KEYS = [
  'id',
  'name',
  'type',
  'content',
  'content_fields',
  'tags',
  'style_config',
  'folder_id',
  'is_dynamic',
  'status',
  'scans',
  'image_url',
  'created_at',
  'updated_at',
];

describe('list QR codes (e2e)', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  let otherKey: string;
  let folderId: string;
  let otherFolderId: string;
  let otherCodeIds: string[];
  /** Every code of the account as stored: the oracle for filters, search and sorts. */
  let rows: Array<{ id: string; name: string; type: string; contentString: string; isDynamic: boolean; folderId: string | null; createdAt: Date }>;

  const list = (query: string, apiKey = key) => t.request({ method: 'GET', url: `/api/v1/qrcodes${query}`, headers: auth(apiKey) });
  const listOk = async (query: string, apiKey = key) => {
    const res = await list(query, apiKey);
    expectStatus(res, 200);
    return res.json<{ data: Item[]; pagination: Record<string, number>; request_id: string }>();
  };
  /** Walks every page of a query; returns the ids in the order served. */
  const walk = async (query: string, limit: number) => {
    const ids: string[] = [];
    const first = await listOk(`?${query}&limit=${limit}&page=1`);
    const { total_pages } = first.pagination;
    ids.push(...first.data.map((item) => item.id));
    for (let page = 2; page <= total_pages; page++) {
      const body = await listOk(`?${query}&limit=${limit}&page=${page}`);
      expect(body.pagination).toEqual({ page, limit, total: first.pagination.total, total_pages });
      ids.push(...body.data.map((item) => item.id));
    }
    return { ids, total: first.pagination.total };
  };
  const idsWhere = (predicate: (row: (typeof rows)[number]) => boolean) =>
    rows
      .filter(predicate)
      .map((row) => row.id)
      .sort();

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key, accountId } = await t.newAccount());
    ({ key: otherKey } = await t.newAccount());
    folderId = (await createFolder(t, key, 'Posters')).id;
    otherFolderId = (await createFolder(t, otherKey, 'Theirs')).id;

    const items = [
      qrInput('url', { name: 'alpha', content: { url: 'https://example.com/SpecialOffer' } }),
      qrInput('url', { name: 'bravo', is_dynamic: true, folder_id: folderId }),
      qrInput('text', { name: 'charlie', content: { text: 'Grand Opening at noon' } }),
      qrInput('text', { name: 'delta', content: { text: '50% off everything' } }),
      qrInput('text', { name: 'echo', content: { text: 'under_score here' } }),
      qrInput('text', { name: 'foxtrot', content: { text: 'underXscore there' } }),
      qrInput('text', { name: 'golf', content: { text: 'a back\\slash' } }),
      qrInput('text', { name: 'hotel', content: { text: '100 percent' } }),
      qrInput('wifi', { name: 'Summer Poster', folder_id: folderId }),
      qrInput('wifi', { name: 'Winter poster', is_dynamic: true }),
      qrInput('geo', { name: 'same name', folder_id: folderId }),
      qrInput('geo', { name: 'same name' }),
      qrInput('geo', { name: 'same name', is_dynamic: true }),
      qrInput('phone', { name: 'same name' }),
      qrInput('sms', { name: 'same name' }),
      qrInput('vcard', { name: 'Discount 20%' }),
      qrInput('event', { name: 'snake_case_name' }),
      qrInput('email', { name: 'kilo' }),
    ];
    // Two bulks and some single creates, so created_at comes from different requests.
    const first = await t.request({ method: 'POST', url: '/api/v1/qrcodes/bulk', headers: auth(key), payload: { qrcodes: items.slice(0, 9) } });
    expectStatus(first, 201);
    expect(first.json().errors).toEqual([]);
    const second = await t.request({ method: 'POST', url: '/api/v1/qrcodes/bulk', headers: auth(key), payload: { qrcodes: items.slice(9, 15) } });
    expectStatus(second, 201);
    expect(second.json().errors).toEqual([]);
    for (const item of items.slice(15)) await createQr(t, key, item);

    // Equal created_at instants across page boundaries: the id must break the ties.
    const all = await t.prisma.qrCode.findMany({ where: { accountId }, select: { id: true }, orderBy: { id: 'asc' } });
    const instants = [new Date('2030-01-01T00:00:00.000Z'), new Date('2030-01-02T00:00:00.000Z'), new Date('2030-01-03T00:00:00.000Z')];
    for (const [index, { id }] of all.entries()) {
      if (index % 4 !== 3) await t.prisma.qrCode.update({ where: { id }, data: { createdAt: instants[index % 3] } });
    }

    otherCodeIds = [];
    for (const name of ['alpha', 'same name', 'Summer Poster 50%']) {
      otherCodeIds.push((await createQr(t, otherKey, { name, folder_id: otherFolderId })).id);
    }

    rows = await t.prisma.qrCode.findMany({
      where: { accountId },
      select: { id: true, name: true, type: true, contentString: true, isDynamic: true, folderId: true, createdAt: true },
    });
    expect(rows).toHaveLength(items.length);
  });
  afterAll(() => t?.close());

  it('lists with defaults: page 1, limit 20, newest first, in the list representation', async () => {
    const res = await list('');
    expectStatus(res, 200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'pagination', 'request_id']);
    expect(body.request_id).toBe(res.headers['x-request-id']);
    expect(body.pagination).toEqual({ page: 1, limit: 20, total: rows.length, total_pages: 1 });
    expect(body.data).toHaveLength(rows.length);
    for (const item of body.data) {
      const row = rows.find((candidate) => candidate.id === item.id)!;
      const expected = item.is_dynamic ? [...LIST_ITEM_KEYS, 'short_code', 'dynamic_url', ...LINK_SETTING_KEYS] : LIST_ITEM_KEYS;
      expect(Object.keys(item).sort()).toEqual([...expected].sort());
      expect(item).toMatchObject({
        name: row.name,
        type: row.type,
        content: row.contentString,
        style_config: '{}',
        folder_id: row.folderId,
        is_dynamic: row.isDynamic,
        status: 'active',
        scans: 0,
        image_url: `http://api.test/api/v1/qrcodes/${row.id}/image`,
        created_at: row.createdAt.toISOString(),
        updated_at: expect.stringMatching(ISO_UTC_MS),
      });
      expect(typeof item.content).toBe('string');
      if (item.is_dynamic) {
        expect(item.short_code).toMatch(SHORT_CODE);
        expect(item.dynamic_url).toBe(`http://qr.test/r/${item.short_code}`);
      }
    }
    const newest = await listOk('?sort=newest');
    expect(body.data.map((item: Item) => item.id)).toEqual(newest.data.map((item) => item.id));
  });

  it('paginates: page, limit, total and total_pages', async () => {
    const total = rows.length;
    const page1 = await listOk('?limit=5&page=1');
    expect(page1.pagination).toEqual({ page: 1, limit: 5, total, total_pages: Math.ceil(total / 5) });
    expect(page1.data).toHaveLength(5);
    const last = await listOk(`?limit=5&page=${Math.ceil(total / 5)}`);
    expect(last.data).toHaveLength(total - 5 * (Math.ceil(total / 5) - 1));
    const beyond = await listOk(`?limit=5&page=${Math.ceil(total / 5) + 1}`);
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination).toEqual({ page: Math.ceil(total / 5) + 1, limit: 5, total, total_pages: Math.ceil(total / 5) });
    expect((await listOk('?limit=1')).data).toHaveLength(1);
    expect((await listOk('?limit=100')).pagination).toEqual({ page: 1, limit: 100, total, total_pages: 1 });
  });

  it.each(SORTS.map((sort) => [sort]))('walks every page with sort=%s: each code exactly once, no overlap', async (sort) => {
    for (const limit of [1, 4, 7]) {
      const { ids, total } = await walk(`sort=${sort}`, limit);
      expect(total).toBe(rows.length);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort()).toEqual(rows.map((row) => row.id).sort());
    }
  });

  it('orders newest and oldest by created_at, ties by id, each the exact reverse of the other', async () => {
    const newest = (await walk('sort=newest', 4)).ids;
    const oldest = (await walk('sort=oldest', 4)).ids;
    const byId = new Map(rows.map((row) => [row.id, row]));
    const expectedOldest = [...rows]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((row) => row.id);
    expect(oldest).toEqual(expectedOldest);
    expect(newest).toEqual([...expectedOldest].reverse());
    expect(byId.get(newest[0])!.createdAt.getTime()).toBeGreaterThanOrEqual(byId.get(newest[newest.length - 1])!.createdAt.getTime());
  });

  it('orders name-asc and name-desc by name, ties by id, each the exact reverse of the other', async () => {
    const asc = (await walk('sort=name-asc', 3)).ids;
    const desc = (await walk('sort=name-desc', 3)).ids;
    expect(desc).toEqual([...asc].reverse());
    // Equal names sit together, ordered by id.
    const same = rows
      .filter((row) => row.name === 'same name')
      .map((row) => row.id)
      .sort();
    const start = asc.indexOf(same[0]);
    expect(asc.slice(start, start + same.length)).toEqual(same);
    // Plain lower-case words sort alike under every collation.
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'kilo'];
    const nameOf = new Map(rows.map((row) => [row.id, row.name]));
    expect(asc.map((id) => nameOf.get(id)).filter((name) => words.includes(name!))).toEqual(words);
    const texts = await listOk('?type=text&sort=name-desc');
    expect(texts.data.map((item) => item.name)).toEqual(['hotel', 'golf', 'foxtrot', 'echo', 'delta', 'charlie']);
  });

  it('filters by type, is_dynamic and folder_id, alone and combined', async () => {
    const check = async (query: string, expected: string[]) => {
      const { ids, total } = await walk(query, 3);
      expect(total).toBe(expected.length);
      expect([...ids].sort()).toEqual(expected);
    };
    await check(
      'type=geo',
      idsWhere((row) => row.type === 'geo'),
    );
    await check(
      'type=wifi',
      idsWhere((row) => row.type === 'wifi'),
    );
    await check(
      'is_dynamic=true',
      idsWhere((row) => row.isDynamic),
    );
    await check(
      'is_dynamic=false',
      idsWhere((row) => !row.isDynamic),
    );
    await check(
      `folder_id=${folderId}`,
      idsWhere((row) => row.folderId === folderId),
    );
    await check(
      `type=geo&is_dynamic=false&folder_id=${folderId}`,
      idsWhere((row) => row.type === 'geo' && !row.isDynamic && row.folderId === folderId),
    );
    expect(idsWhere((row) => row.type === 'geo')).toHaveLength(3);
    expect(idsWhere((row) => row.isDynamic)).toHaveLength(3);
    // Another account's folder lists nothing of theirs.
    await check(`folder_id=${otherFolderId}`, []);
  });

  it('searches name and content case-insensitively', async () => {
    const byName = await listOk('?search=summer%20POSTER');
    expect(byName.data.map((item) => item.name)).toEqual(['Summer Poster']);
    const posters = await listOk('?search=poster&sort=name-asc');
    expect(posters.data.map((item) => item.name).sort()).toEqual(['Summer Poster', 'Winter poster']);
    const byContent = await listOk('?search=specialoffer');
    expect(byContent.data.map((item) => item.name)).toEqual(['alpha']);
    const opening = await listOk('?search=GRAND%20opening');
    expect(opening.data.map((item) => item.name)).toEqual(['charlie']);
    const none = await listOk('?search=nothing-matches-this');
    expect(none).toMatchObject({ data: [], pagination: { total: 0, total_pages: 0 } });
    // Search combines with the other filters.
    const wifiPoster = await listOk('?search=poster&is_dynamic=true');
    expect(wifiPoster.data.map((item) => item.name)).toEqual(['Winter poster']);
  });

  it.each([['%'], ['_'], ['\\'], ['50%'], ['under_score'], ['%o'], ['same name'], ['.*']])(
    'search %j matches literally, as the stored oracle says',
    async (term) => {
      const needle = term.toLowerCase();
      const expected = idsWhere((row) => row.name.toLowerCase().includes(needle) || row.contentString.toLowerCase().includes(needle));
      const { ids, total } = await walk(`search=${encodeURIComponent(term)}`, 50);
      expect(total).toBe(expected.length);
      expect([...ids].sort()).toEqual(expected);
    },
  );

  it('search for % and _ does not act as a wildcard', async () => {
    const percent = await listOk(`?search=${encodeURIComponent('%')}&limit=100`);
    expect(percent.data.length).toBeGreaterThan(0);
    expect(percent.data.length).toBeLessThan(rows.length);
    for (const item of percent.data) expect(`${item.name} ${item.content}`).toContain('%');

    const underscore = await listOk(`?search=${encodeURIComponent('under_score')}`);
    expect(underscore.data.map((item) => item.name)).toEqual(['echo']);
    const backslash = await listOk(`?search=${encodeURIComponent('\\')}`);
    expect(backslash.data.map((item) => item.name)).toEqual(['golf']);
  });

  it("lists only the caller's codes", async () => {
    const mine = await walk('sort=name-asc', 50);
    for (const id of otherCodeIds) expect(mine.ids).not.toContain(id);
    for (const query of ['?search=alpha', '?search=50%25', '?search=same%20name', `?folder_id=${otherFolderId}`]) {
      const body = await listOk(query);
      for (const item of body.data) expect(otherCodeIds).not.toContain(item.id);
    }
    const theirs = await listOk('?limit=100', otherKey);
    expect(theirs.pagination.total).toBe(3);
    expect(theirs.data.map((item) => item.id).sort()).toEqual([...otherCodeIds].sort());
    const theirSearch = await listOk('?search=50%25', otherKey);
    expect(theirSearch.data.map((item) => item.name)).toEqual(['Summer Poster 50%']);
  });

  it.each([
    ['page', '?page=0'],
    ['page', '?page=-1'],
    ['page', '?page=abc'],
    ['page', '?page=1.5'],
    ['limit', '?limit=0'],
    ['limit', '?limit=101'],
    ['limit', '?limit=-5'],
    ['limit', '?limit=ten'],
    ['sort', '?sort=random'],
    ['sort', '?sort=NEWEST'],
    ['type', '?type=bitcoin'],
    ['is_dynamic', '?is_dynamic=yes'],
    ['is_dynamic', '?is_dynamic=1'],
    ['folder_id', '?folder_id=not-a-uuid'],
    ['search', `?search=${'s'.repeat(201)}`],
  ])('400 naming %s for %s', async (field, query) => {
    const errors = expectFieldErrors(await list(query), field);
    expect(errors.every((error) => error.field === field)).toBe(true);
  });

  it('400 naming every bad parameter at once, and an unknown parameter', async () => {
    expectFieldErrors(await list('?page=0&limit=500&sort=best&type=x&is_dynamic=maybe'), 'page', 'limit', 'sort', 'type', 'is_dynamic');
    expectFieldErrors(await list('?owner=someone-else'), 'owner');
  });

  it('401 without a key', async () => {
    expectErrorBody(await t.request({ method: 'GET', url: '/api/v1/qrcodes' }), 401);
  });
});

describe('list totals kept by counters (e2e)', () => {
  it('match a real count after creates, bulk, upgrades, folder moves, folder deletion and deletes', async () => {
    const t = await startTestApp(GENEROUS_RATE_LIMIT);
    try {
      const { key, accountId } = await t.newAccount();
      const folder = await createFolder(t, key, 'Counted');
      const made = [];
      for (const type of ['url', 'text', 'wifi'] as const) made.push(await createQr(t, key, { type, content: contentOf(type) }));
      const bulk = await t.request({
        method: 'POST',
        url: '/api/v1/qrcodes/bulk',
        headers: auth(key),
        payload: { qrcodes: [qrInput('url', { folder_id: folder.id }), qrInput('text', { is_dynamic: true }), qrInput('geo')] },
      });
      expect(bulk.statusCode).toBe(201);
      await updateQr(t, key, made[0].id, { is_dynamic: true, folder_id: folder.id });
      await updateQr(t, key, made[1].id, { folder_id: folder.id });
      await t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${made[2].id}`, headers: auth(key) });

      const queries = [
        '',
        '?type=url',
        '?is_dynamic=true',
        '?is_dynamic=false',
        `?folder_id=${folder.id}`,
        `?type=url&folder_id=${folder.id}&is_dynamic=true`,
      ];
      const check = async () => {
        for (const query of queries) {
          const listed = (await t.request({ method: 'GET', url: `/api/v1/qrcodes${query}`, headers: auth(key) })).json().pagination.total;
          const where: Record<string, unknown> = { accountId };
          const params = new URLSearchParams(query.slice(1));
          if (params.get('type')) where.type = params.get('type');
          if (params.get('is_dynamic')) where.isDynamic = params.get('is_dynamic') === 'true';
          if (params.get('folder_id')) where.folderId = params.get('folder_id');
          expect({ query, total: listed }).toEqual({ query, total: await t.prisma.qrCode.count({ where }) });
        }
      };
      await check();
      await t.request({ method: 'DELETE', url: `/api/v1/folders/${folder.id}`, headers: auth(key) });
      await check();
    } finally {
      await t.close();
    }
  });
});
