import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app';
import {
  auth,
  createFolder,
  createQr,
  expectErrorBody,
  expectFieldErrors,
  expectStatus,
  GENEROUS_RATE_LIMIT,
  getQr,
  qrInput,
  updateQr,
} from './support/factories';

describe('tags (e2e)', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  let otherKey: string;

  beforeAll(async () => {
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE: '1' });
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

  describe('on codes', () => {
    const codeTags = async (id: string, apiKey = key) => {
      const res = await getQr(t, apiKey, id);
      expectStatus(res, 200);
      return res.json<{ tags: string[] }>().tags;
    };

    it('are set on create (names matched without case, new ones made, repeats kept once) and shown by create, get and list', async () => {
      await tags('POST', '', { name: 'Window' });
      const created = await createQr(t, key, { name: 'Tagged poster', tags: ['window', ' store-12 ', 'STORE-12', 'Spring  Sale'] });
      expect(created.tags).toEqual(['Window', 'store-12', 'Spring Sale']);
      expect(await codeTags(created.id)).toEqual(['Window', 'store-12', 'Spring Sale']);
      const untagged = await createQr(t, key, { name: 'Untagged poster' });
      expect(untagged.tags).toEqual([]);
      const list = await t.request({ method: 'GET', url: '/api/v1/qrcodes?search=tagged%20poster&limit=100', headers: auth(key) });
      const byName = new Map(list.json<{ data: Array<{ name: string; tags: string[] }> }>().data.map((code) => [code.name, code.tags]));
      expect(byName.get('Tagged poster')).toEqual(['Window', 'store-12', 'Spring Sale']);
      expect(byName.get('Untagged poster')).toEqual([]);
      const listed = (await tags('GET')).json<{ data: Array<{ name: string; codes: number }> }>().data;
      expect(listed).toEqual(
        expect.arrayContaining([
          { name: 'store-12', codes: 1 },
          { name: 'Spring Sale', codes: 1 },
          { name: 'Window', codes: 1 },
        ]),
      );
      // Another account's tag of the same name is another tag.
      const theirs = await createQr(t, otherKey, { tags: ['STORE-12'] });
      expect(theirs.tags).toEqual(['STORE-12']);
    });

    it('are set on bulk create', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/qrcodes/bulk',
        headers: auth(key),
        payload: { qrcodes: [qrInput('url', { tags: ['bulk-a', 'bulk-b'] }), qrInput('text', { tags: ['BULK-A'] }), qrInput('url')] },
      });
      expectStatus(res, 201);
      const items = res.json<{ created: Array<{ tags: string[] }> }>().created;
      expect(items.map((item) => item.tags)).toEqual([['bulk-a', 'bulk-b'], ['bulk-a'], []]);
    });

    it('are replaced by an update ([] removes them), audited before and after', async () => {
      const code = await createQr(t, key, { tags: ['alpha', 'beta'] });
      const updated = await updateQr(t, key, code.id, { tags: ['Beta', 'gamma'] });
      expectStatus(updated, 200);
      expect(updated.json<{ qrcode: { tags: string[] } }>().qrcode.tags).toEqual(['beta', 'gamma']);
      expectStatus(await updateQr(t, key, code.id, { name: 'Renamed only' }), 200);
      expect(await codeTags(code.id)).toEqual(['beta', 'gamma']);
      expectStatus(await updateQr(t, key, code.id, { tags: [] }), 200);
      expect(await codeTags(code.id)).toEqual([]);
      const entries = await t.prisma.auditLogEntry.findMany({ where: { accountId, resourceId: code.id }, orderBy: { createdAt: 'asc' } });
      expect(entries.map((entry) => entry.action)).toEqual(['qrcode.create', 'qrcode.update', 'qrcode.update', 'qrcode.update']);
      expect((entries[0].changes as { after: { tags: string[] } }).after.tags).toEqual(['alpha', 'beta']);
      expect(entries[1].changes).toEqual({ before: { tags: ['alpha', 'beta'] }, after: { tags: ['beta', 'gamma'] } });
      expect(entries[3].changes).toEqual({ before: { tags: ['beta', 'gamma'] }, after: { tags: [] } });
    });

    it.each([
      ['a name too long', ['ok', 'fine', 'good', 'x'.repeat(51)], 'tags[3]', 'at most 50 characters'],
      ['a blank name', ['ok', '  '], 'tags[1]', 'must not be blank'],
      ['a list separator', ['a|b'], 'tags[0]', 'must not contain'],
      ['a number', [7], 'tags[0]', 'must be a string'],
      ['more than 20 tags', Array.from({ length: 21 }, (_, i) => `t${i}`), 'tags', 'at most 20 tags'],
      ['not a list', 'spring', 'tags', 'must be an array'],
      ['null', null, 'tags', 'must be an array'],
    ])('refuses %s on create and update, naming the field', async (_, value, field, message) => {
      const created = await t.request({ method: 'POST', url: '/api/v1/qrcodes', headers: auth(key), payload: qrInput('url', { tags: value }) });
      expect(expectFieldErrors(created, field).find((error) => error.field === field)!.message).toContain(message);
      const code = await createQr(t, key);
      expect(expectFieldErrors(await updateQr(t, key, code.id, { tags: value }), field)[0].message).toContain(message);
      expect(await codeTags(code.id)).toEqual([]);
    });

    it('go out in the CSV export and come back in with its import (into another account)', async () => {
      const { key: sourceKey } = await t.newAccount();
      const { key: targetKey } = await t.newAccount();
      await createQr(t, sourceKey, { name: 'Round trip 1', tags: ['spring', 'Store-12'] });
      await createQr(t, sourceKey, { name: 'Round trip 2' });
      const exported = await t.request({ method: 'GET', url: '/api/v1/qrcodes.csv?sort=oldest', headers: auth(sourceKey) });
      expectStatus(exported, 200);
      const [header, first, second] = exported.body.split('\r\n');
      expect(header.split(',')).toContain('tags');
      const tagsAt = header.split(',').indexOf('tags');
      expect(first.split(',')[tagsAt]).toBe('spring|Store-12');
      expect(second.split(',')[tagsAt]).toBe('');
      const columns = header.split(',');
      const badRow = columns.map((column) =>
        column === 'type'
          ? 'url'
          : column === 'name'
            ? 'Bad tags'
            : column === 'tags'
              ? `${'x'.repeat(51)}|ok`
              : column === 'content.url'
                ? 'https://example.com/bad'
                : '',
      );
      const upload = await t.request({
        method: 'POST',
        url: '/api/v1/imports',
        headers: { ...auth(targetKey), 'content-type': 'text/csv' },
        payload: `${exported.body}${badRow.join(',')}\r\n`,
      });
      expectStatus(upload, 202);
      const jobId = upload.json<{ id: string }>().id;
      let job: { status: string; counts: Record<string, number> } = { status: 'queued', counts: {} };
      for (let attempt = 0; attempt < 300 && !['done', 'failed'].includes(job.status); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        job = (await t.request({ method: 'GET', url: `/api/v1/imports/${jobId}`, headers: auth(targetKey) })).json();
      }
      expect(job).toMatchObject({ status: 'done', counts: { created: 2, failed: 1 } });
      const failed = (await t.request({ method: 'GET', url: `/api/v1/imports/${jobId}?status=failed`, headers: auth(targetKey) })).json<{
        rows: Array<{ errors: Array<{ field: string }> }>;
      }>();
      expect(JSON.stringify(failed)).toContain('tags[0]');
      const list = (await t.request({ method: 'GET', url: '/api/v1/qrcodes?sort=oldest', headers: auth(targetKey) })).json<{
        data: Array<{ name: string; tags: string[] }>;
      }>();
      expect(list.data.map((code) => [code.name, code.tags])).toEqual([
        ['Round trip 1', ['spring', 'Store-12']],
        ['Round trip 2', []],
      ]);
    });

    it('ride along in webhook payloads', async () => {
      const hook = await t.request({
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: auth(otherKey),
        payload: { url: 'http://127.0.0.1:9/hook', events: ['qrcode.created', 'qrcode.updated'] },
      });
      expectStatus(hook, 201);
      const code = await createQr(t, otherKey, { tags: ['hooked'] });
      expectStatus(await updateQr(t, otherKey, code.id, { tags: ['hooked', 'twice'] }), 200);
      const events = await t.prisma.webhookEvent.findMany({ where: { body: { contains: code.id } }, orderBy: { occurredAt: 'asc' } });
      const bodies = events.map((event) => JSON.parse(event.body) as { data: { qrcode: { tags: string[] }; changed_fields?: string[] } });
      expect(bodies.map((body) => body.data.qrcode.tags)).toEqual([['hooked'], ['hooked', 'twice']]);
      expect(bodies[1].data.changed_fields).toEqual(['tags']);
    });
  });
});
