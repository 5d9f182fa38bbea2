import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app';
import { auth, createFolder, expectErrorBody, expectFieldErrors, expectStatus, GENEROUS_RATE_LIMIT } from './support/factories';

describe('tags (e2e)', () => {
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

  const tags = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path = '', payload?: object, apiKey = key) =>
    t.request({ method, url: `/api/v1/tags${path}`, headers: auth(apiKey), ...(payload ? { payload } : {}) });
  const names = async (apiKey = key) =>
    (await tags('GET', '', undefined, apiKey)).json<{ data: Array<{ name: string }> }>().data.map((tag) => tag.name);

  it('creates a tag once per account without regard to case, lists them by name, and keeps other accounts apart', async () => {
    const created = await tags('POST', '', { name: '  Spring   2027 ' });
    expectStatus(created, 201);
    expect(created.json()).toEqual({ name: 'Spring 2027', codes: 0, request_id: created.headers['x-request-id'] });
    expect(expectErrorBody(await tags('POST', '', { name: 'SPRING 2027' }), 409).errors).toEqual([
      { field: 'name', message: 'a tag named "SPRING 2027" exists (names are compared without case)' },
    ]);
    expectStatus(await tags('POST', '', { name: 'autumn' }), 201);
    expect(await names()).toEqual(['autumn', 'Spring 2027']);
    expect(await names(otherKey)).toEqual([]);
    expectStatus(await tags('POST', '', { name: 'spring 2027' }, otherKey), 201);
    const audit = await t.prisma.auditLogEntry.findMany({ where: { accountId, action: 'tag.create' } });
    expect(audit.map((entry) => (entry.changes as { after: { name: string } }).after.name).sort()).toEqual(['Spring 2027', 'autumn']);
  });

  it.each([
    ['blank', '   ', 'must not be blank'],
    ['too long', 'x'.repeat(51), 'at most 50 characters'],
    ['a list separator', 'a|b', 'must not contain'],
    ['not a string', 42, 'must be a string'],
  ])('refuses a name that is %s', async (_, name, message) => {
    expect(expectFieldErrors(await tags('POST', '', { name }), 'name')[0].message).toContain(message);
  });

  it('renames a tag (a case change too), merges onto an existing name, and deletes one', async () => {
    await tags('POST', '', { name: 'menu' });
    await tags('POST', '', { name: 'menus' });
    const renamed = await tags('PATCH', '/MENU', { name: 'Menu' });
    expectStatus(renamed, 200);
    expect(renamed.json()).toMatchObject({ name: 'Menu', codes: 0 });
    const merged = await tags('PATCH', '/Menu', { name: 'MENUS' });
    expectStatus(merged, 200);
    expect(merged.json()).toMatchObject({ name: 'menus', codes: 0 });
    expect(await names()).not.toContain('Menu');
    const deleted = await tags('DELETE', '/menus');
    expectStatus(deleted, 200);
    expect(deleted.json()).toMatchObject({ message: 'Tag deleted', codes: 0 });
    expectErrorBody(await tags('DELETE', '/menus'), 404);
    expectErrorBody(await tags('PATCH', '/nothing-like-it', { name: 'x' }), 404);
    expect((await t.prisma.auditLogEntry.findMany({ where: { accountId, resourceType: 'tag' } })).map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['tag.update', 'tag.merge', 'tag.delete']),
    );
  });

  it('lets a folder-restricted key read tags but not rename or delete them', async () => {
    const folder = await createFolder(t, key, 'Stores');
    const restricted = await t.request({
      method: 'POST',
      url: '/api/v1/admin/api-keys',
      headers: { 'x-admin-token': ADMIN_TOKEN },
      payload: { name: 'store key', account_id: accountId, folder_ids: [folder.id] },
    });
    const restrictedKey = restricted.json<{ key: string }>().key;
    expectStatus(await tags('GET', '', undefined, restrictedKey), 200);
    expectErrorBody(await tags('PATCH', '/autumn', { name: 'fall' }, restrictedKey), 403);
    expectErrorBody(await tags('DELETE', '/autumn', undefined, restrictedKey), 403);
    expect(await names()).toContain('autumn');
  });
});
