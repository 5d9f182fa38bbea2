import {
  auth,
  countCodes,
  createFolder,
  createQr,
  expectErrorBody,
  expectFieldErrors,
  expectStatus,
  GENEROUS_RATE_LIMIT,
  getQr,
  ISO_UTC_MS,
  NO_SUCH_ID,
  updateQr,
  UUID,
} from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

describe('folders (e2e)', () => {
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

  const folders = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path = '', payload?: object, apiKey = key) =>
    t.request({ method, url: `/api/v1/folders${path}`, headers: auth(apiKey), ...(payload ? { payload } : {}) });

  it('creates a folder: {id, name, qr_count, created_at, updated_at, request_id}', async () => {
    const res = await folders('POST', '', { name: 'Summer campaign' });
    expectStatus(res, 201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Summer campaign',
      qr_count: 0,
      created_at: expect.stringMatching(ISO_UTC_MS),
      updated_at: expect.stringMatching(ISO_UTC_MS),
      request_id: res.headers['x-request-id'],
    });
    expect(await t.prisma.folder.findUniqueOrThrow({ where: { id: body.id } })).toMatchObject({ accountId, name: 'Summer campaign' });
  });

  it('reads the clock once per write: a new folder’s created_at is its updated_at, a rename moves only updated_at', async () => {
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => folders('POST', '', { name: `Clock ${i}` })));
    for (const res of created) {
      expectStatus(res, 201);
      const { created_at, updated_at } = res.json<{ created_at: string; updated_at: string }>();
      expect({ created_at, updated_at }).toEqual({ created_at, updated_at: created_at });
    }
    const first = created[0].json<{ id: string; created_at: string }>();
    const renamed = await folders('PUT', `/${first.id}`, { name: 'Clock renamed' });
    expectStatus(renamed, 200);
    expect(renamed.json()).toMatchObject({ created_at: first.created_at });
    expect(Date.parse(renamed.json<{ updated_at: string }>().updated_at)).toBeGreaterThanOrEqual(Date.parse(first.created_at));
  });

  it('trims the name; accepts 1 and 100 characters', async () => {
    expect((await createFolder(t, key, '  Padded  ')).name).toBe('Padded');
    expect((await createFolder(t, key, 'x')).name).toBe('x');
    expect((await createFolder(t, key, 'n'.repeat(100))).name).toBe('n'.repeat(100));
  });

  it.each([
    ['empty', { name: '' }],
    ['blank', { name: '   ' }],
    ['101 characters', { name: 'n'.repeat(101) }],
    ['missing', {}],
    ['not a string', { name: 7 }],
    ['null', { name: null }],
  ])('400 naming name when it is %s, creating nothing', async (_case, payload) => {
    const before = await t.prisma.folder.count({ where: { accountId } });
    expectFieldErrors(await folders('POST', '', payload), 'name');
    expect(await t.prisma.folder.count({ where: { accountId } })).toBe(before);
  });

  it('400 for an unknown field', async () => {
    expectFieldErrors(await folders('POST', '', { name: 'ok', color: 'red' }), 'color');
  });

  it('gets, renames and deletes a folder', async () => {
    const folder = await createFolder(t, key, 'Before');
    const got = await folders('GET', `/${folder.id}`);
    expectStatus(got, 200);
    expect(got.json()).toEqual({ ...folder, request_id: got.headers['x-request-id'] });

    await new Promise((resolve) => setTimeout(resolve, 5));
    const renamed = await folders('PUT', `/${folder.id}`, { name: ' After ' });
    expectStatus(renamed, 200);
    expect(renamed.json()).toMatchObject({ id: folder.id, name: 'After', qr_count: 0, created_at: folder.created_at });
    expect(Date.parse(renamed.json().updated_at)).toBeGreaterThan(Date.parse(folder.updated_at));
    expect((await folders('GET', `/${folder.id}`)).json().name).toBe('After');

    expectFieldErrors(await folders('PUT', `/${folder.id}`, { name: '' }), 'name');
    expectFieldErrors(await folders('PUT', `/${folder.id}`, { name: 'n'.repeat(101) }), 'name');
    expect((await folders('GET', `/${folder.id}`)).json().name).toBe('After');

    const deleted = await folders('DELETE', `/${folder.id}`);
    expectStatus(deleted, 200);
    expect(deleted.json()).toEqual({ message: expect.any(String), request_id: deleted.headers['x-request-id'] });
    expectErrorBody(await folders('GET', `/${folder.id}`), 404);
    expectErrorBody(await folders('PUT', `/${folder.id}`, { name: 'Back' }), 404);
    expectErrorBody(await folders('DELETE', `/${folder.id}`), 404);
    expect(await t.prisma.folder.count({ where: { id: folder.id } })).toBe(0);
  });

  it("lists the account's folders with their counts", async () => {
    const { key: ownKey } = await t.newAccount();
    const b = await createFolder(t, ownKey, 'b folder');
    const a = await createFolder(t, ownKey, 'a folder');
    await createFolder(t, otherKey, 'a folder of someone else');
    await createQr(t, ownKey, { folder_id: b.id });
    const res = await folders('GET', '', undefined, ownKey);
    expectStatus(res, 200);
    expect(res.json()).toEqual({
      data: [
        { id: a.id, name: 'a folder', qr_count: 0, created_at: a.created_at, updated_at: a.updated_at },
        { id: b.id, name: 'b folder', qr_count: 1, created_at: b.created_at, updated_at: b.updated_at },
      ],
      request_id: res.headers['x-request-id'],
    });
  });

  it('counts the codes in a folder as they move in, out and are deleted', async () => {
    const folder = await createFolder(t, key, 'Counted');
    const count = async () => (await folders('GET', `/${folder.id}`)).json().qr_count;
    const codes = [];
    for (let index = 0; index < 3; index++) codes.push(await createQr(t, key, { folder_id: folder.id }));
    const outside = await createQr(t, key);
    expect(await count()).toBe(3);
    expectStatus(await updateQr(t, key, outside.id, { folder_id: folder.id }), 200);
    expect(await count()).toBe(4);
    expectStatus(await updateQr(t, key, codes[0].id, { folder_id: null }), 200);
    expect(await count()).toBe(3);
    expectStatus(await t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${codes[1].id}`, headers: auth(key) }), 200);
    expect(await count()).toBe(2);
    const bulk = await t.request({
      method: 'POST',
      url: '/api/v1/qrcodes/bulk',
      headers: auth(key),
      payload: {
        qrcodes: [
          { type: 'text', content: { text: 'a' }, folder_id: folder.id },
          { type: 'text', content: { text: 'b' }, folder_id: folder.id },
        ],
      },
    });
    expectStatus(bulk, 201);
    expect(await count()).toBe(4);
  });

  it('deleting a folder keeps its codes, moved out of it (folder_id null)', async () => {
    const doomed = await createFolder(t, key, 'Doomed');
    const kept = await createFolder(t, key, 'Kept');
    const inside = [await createQr(t, key, { folder_id: doomed.id }), await createQr(t, key, { folder_id: doomed.id, is_dynamic: true })];
    const elsewhere = await createQr(t, key, { folder_id: kept.id });
    const before = await countCodes(t, accountId);

    expectStatus(await folders('DELETE', `/${doomed.id}`), 200);
    expect(await countCodes(t, accountId)).toBe(before);
    for (const code of inside) {
      const got = await getQr(t, key, code.id);
      expectStatus(got, 200);
      expect(got.json().folder_id).toBeNull();
    }
    expect((await getQr(t, key, inside[1].id)).json().short_code).toBe(inside[1].short_code);
    expect((await getQr(t, key, elsewhere.id)).json().folder_id).toBe(kept.id);
    expect((await folders('GET', `/${kept.id}`)).json().qr_count).toBe(1);
    const listed = await t.request({ method: 'GET', url: `/api/v1/qrcodes?folder_id=${doomed.id}`, headers: auth(key) });
    expectStatus(listed, 200);
    expect(listed.json().pagination.total).toBe(0);
    // The deleted folder can no longer receive codes.
    expectFieldErrors(await updateQr(t, key, inside[0].id, { folder_id: doomed.id }), 'folder_id');
  });

  it("answers 404 alike for another account's folder and an unknown id, and 400 naming id for a non-UUID id, on get, put and delete", async () => {
    const theirs = await createFolder(t, otherKey, 'Private');
    const theirCode = await createQr(t, otherKey, { folder_id: theirs.id });
    const bodies = [];
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { name: 'Hijacked' }],
      ['DELETE', undefined],
    ] as const) {
      expect(expectFieldErrors(await folders(method, '/not-a-uuid', payload), 'id')).toEqual([{ field: 'id', message: 'id must be a UUID' }]);
    }
    for (const id of [theirs.id, NO_SUCH_ID]) {
      for (const [method, payload] of [
        ['GET', undefined],
        ['PUT', { name: 'Hijacked' }],
        ['DELETE', undefined],
      ] as const) {
        const { request_id: _id, ...body } = expectErrorBody(await folders(method, `/${id}`, payload), 404);
        bodies.push(body);
      }
    }
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    const stored = await t.prisma.folder.findUniqueOrThrow({ where: { id: theirs.id } });
    expect(stored.name).toBe('Private');
    expect((await folders('GET', `/${theirs.id}`, undefined, otherKey)).json()).toMatchObject({ name: 'Private', qr_count: 1 });
    expect((await getQr(t, otherKey, theirCode.id)).json().folder_id).toBe(theirs.id);
    const mine = (await folders('GET')).json().data.map((folder: { id: string }) => folder.id);
    expect(mine).not.toContain(theirs.id);
  });

  it('401 without a key', async () => {
    expectErrorBody(await t.request({ method: 'GET', url: '/api/v1/folders' }), 401);
    expectErrorBody(await t.request({ method: 'POST', url: '/api/v1/folders', payload: { name: 'x' } }), 401);
  });
});
