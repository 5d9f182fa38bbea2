import {
  auth,
  createFolder,
  createQr,
  eventually,
  expectErrorBody,
  expectFieldErrors,
  expectStatus,
  GENEROUS_RATE_LIMIT,
  ISO_UTC_MS,
  NO_SUCH_ID,
  updateQr,
} from './support/factories';
import { HAS_POSTGRES, HAS_REDIS, itWhen } from './support/environment';
import { ADMIN_TOKEN, type Sibling, startTestApp, type TestApp } from './support/test-app';

type Version = {
  version: number;
  created_at: string;
  key_prefix: string | null;
  restored_from: number | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
};
type HistoryPage = { data: Version[]; pagination: { page: number; limit: number; total: number; total_pages: number } };

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** Version 1 shows every versioned field: a code made without smart-link settings has none. */
const NO_LINK_CONTROLS = { rules: [], max_scans: null, fallback_url: null, utm: null, password: null };

describe('destination history (e2e)', () => {
  let t: TestApp;
  let key: string;
  let keyPrefix: string;
  let accountId: string;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key, accountId } = await t.newAccount());
    keyPrefix = (await t.prisma.apiKey.findFirstOrThrow({ where: { accountId } })).prefix;
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, apiKey = key, payload?: object) =>
    t.request({ method, url, headers: auth(apiKey), ...(payload ? { payload } : {}) });
  const history = async (id: string, query = '', apiKey = key): Promise<HistoryPage> => {
    const res = await call('GET', `/api/v1/qrcodes/${id}/history${query}`, apiKey);
    expectStatus(res, 200);
    return res.json();
  };
  const restore = (id: string, version: number | string, apiKey = key) => call('POST', `/api/v1/qrcodes/${id}/history/${version}/restore`, apiKey);
  const update = async (id: string, payload: Record<string, unknown>) => expectStatus(await updateQr(t, key, id, payload), 200);
  const scan = (shortCode: string, through: Pick<Sibling, 'request'> = t) =>
    through.request({ method: 'GET', url: `/r/${shortCode}`, headers: { 'user-agent': IPHONE } });
  const storedVersions = (id: string) => t.prisma.qrCodeVersion.count({ where: { qrCodeId: id } });

  it('version 1 is the code as created; each change of content, status or expiry adds one with the fields before and after', async () => {
    const code = await createQr(t, key, { content: { url: 'https://example.com/v1' }, is_dynamic: true });
    const first = await history(code.id);
    expect(first.pagination).toEqual({ page: 1, limit: 20, total: 1, total_pages: 1 });
    expect(first.data).toEqual([
      {
        version: 1,
        created_at: code.created_at,
        key_prefix: keyPrefix,
        restored_from: null,
        before: null,
        after: { content: { url: 'https://example.com/v1' }, status: 'active', expires_at: null, ...NO_LINK_CONTROLS },
      },
    ]);
    // A create writes no version: version 1 is read from the code until it changes.
    expect(await storedVersions(code.id)).toBe(0);

    // Renames, styles and unchanged values are not versions.
    await update(code.id, { name: 'Renamed', style: { dotsOptions: { type: 'dots' } } });
    await update(code.id, { content: { url: 'https://example.com/v1' }, status: 'active' });
    expect((await history(code.id)).pagination.total).toBe(1);

    const expiry = '2099-06-30T12:00:00.000Z';
    await update(code.id, { content: { url: 'https://example.com/v2' } });
    await update(code.id, { status: 'paused', expires_at: expiry });
    await update(code.id, { expires_at: null, name: 'Renamed again' });
    const page = await history(code.id);
    expect(page.pagination.total).toBe(4);
    expect(page.data.map(({ version, key_prefix, restored_from, before, after }) => ({ version, key_prefix, restored_from, before, after }))).toEqual(
      [
        { version: 4, key_prefix: keyPrefix, restored_from: null, before: { expires_at: expiry }, after: { expires_at: null } },
        {
          version: 3,
          key_prefix: keyPrefix,
          restored_from: null,
          before: { status: 'active', expires_at: null },
          after: { status: 'paused', expires_at: expiry },
        },
        {
          version: 2,
          key_prefix: keyPrefix,
          restored_from: null,
          before: { content: { url: 'https://example.com/v1' } },
          after: { content: { url: 'https://example.com/v2' } },
        },
        {
          version: 1,
          key_prefix: keyPrefix,
          restored_from: null,
          before: null,
          after: { content: { url: 'https://example.com/v1' }, status: 'active', expires_at: null, ...NO_LINK_CONTROLS },
        },
      ],
    );
    // Version 1 keeps its creation time once written; the others are newer, newest first.
    expect(page.data[3].created_at).toBe(code.created_at);
    for (const entry of page.data) expect(entry.created_at).toMatch(ISO_UTC_MS);
    const times = page.data.map((entry) => Date.parse(entry.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('keeps the history of a static code too (its content)', async () => {
    const code = await createQr(t, key, { type: 'text', content: { text: 'first' } });
    await update(code.id, { content: { text: 'second' } });
    const { data } = await history(code.id);
    expect(data.map((entry) => entry.after)).toEqual([
      { content: { text: 'second' } },
      { content: { text: 'first' }, status: 'active', expires_at: null, ...NO_LINK_CONTROLS },
    ]);
  });

  it('pages newest first, as other lists do (page, limit, total, total_pages); out-of-range parameters are 400s', async () => {
    const code = await createQr(t, key, { content: { url: 'https://example.com/p1' }, is_dynamic: true });
    for (let n = 2; n <= 25; n++) await update(code.id, { content: { url: `https://example.com/p${n}` } });
    const versionsOf = (page: HistoryPage) => page.data.map((entry) => entry.version);

    const one = await history(code.id, '?limit=10');
    expect(one.pagination).toEqual({ page: 1, limit: 10, total: 25, total_pages: 3 });
    expect(versionsOf(one)).toEqual([25, 24, 23, 22, 21, 20, 19, 18, 17, 16]);
    const three = await history(code.id, '?limit=10&page=3');
    expect(versionsOf(three)).toEqual([5, 4, 3, 2, 1]);
    // The oldest entry of a page still shows what it changed (the version before it is on the next page).
    expect(three.data[0]).toMatchObject({
      before: { content: { url: 'https://example.com/p4' } },
      after: { content: { url: 'https://example.com/p5' } },
    });
    const past = await history(code.id, '?limit=10&page=4');
    expect(past).toEqual({ data: [], pagination: { page: 4, limit: 10, total: 25, total_pages: 3 }, request_id: expect.any(String) });
    expect(versionsOf(await history(code.id))).toHaveLength(20);

    expectFieldErrors(await call('GET', `/api/v1/qrcodes/${code.id}/history?limit=101`), 'limit');
    expectFieldErrors(await call('GET', `/api/v1/qrcodes/${code.id}/history?page=0`), 'page');
    expectFieldErrors(await call('GET', `/api/v1/qrcodes/${code.id}/history?sort=oldest`), 'sort');
    expectFieldErrors(await call('GET', '/api/v1/qrcodes/not-a-uuid/history'), 'id');
    // An unchanged code past its only page.
    const fresh = await createQr(t, key);
    expect(await history(fresh.id, '?page=2')).toMatchObject({ data: [], pagination: { total: 1, total_pages: 1 } });
  });

  it('restores a version as a new version, and the redirect host answers what it restored', async () => {
    const code = await createQr(t, key, { content: { url: 'https://example.com/first' }, is_dynamic: true });
    await update(code.id, { content: { url: 'https://example.com/second' } });
    await update(code.id, { status: 'paused' });
    // The paused link is in the instance's near cache.
    expect((await scan(code.short_code)).statusCode).toBe(410);

    const res = await restore(code.id, 1);
    expectStatus(res, 200);
    expect(res.json()).toMatchObject({
      message: 'QR code restored to version 1',
      version: 4,
      qrcode: { id: code.id, status: 'active', content_fields: { url: 'https://example.com/first' } },
    });
    const [latest] = (await history(code.id)).data;
    expect(latest).toMatchObject({
      version: 4,
      key_prefix: keyPrefix,
      restored_from: 1,
      before: { content: { url: 'https://example.com/second' }, status: 'paused' },
      after: { content: { url: 'https://example.com/first' }, status: 'active' },
    });
    const redirect = await scan(code.short_code);
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('https://example.com/first');

    // Restoring the paused version pauses the link again.
    expect((await restore(code.id, 3)).json()).toMatchObject({ version: 5, qrcode: { status: 'paused' } });
    expect((await scan(code.short_code)).statusCode).toBe(410);
  });

  itWhen(HAS_POSTGRES && HAS_REDIS)('a restore on one instance changes what another instance redirects to (its near cache is dropped)', async () => {
    const sibling = await t.startSibling();
    const code = await createQr(t, key, { content: { url: 'https://example.com/one' }, is_dynamic: true });
    await update(code.id, { content: { url: 'https://example.com/two' } });
    expect((await scan(code.short_code, sibling)).headers.location).toBe('https://example.com/two');
    expectStatus(await restore(code.id, 1), 200);
    await eventually(async () => (await scan(code.short_code, sibling)).headers.location, 'https://example.com/one');
  });

  it('a restore goes through the update: the audit log records it, and a version now refused is a 400 naming the field', async () => {
    const code = await createQr(t, key, { content: { url: 'https://example.com/a' }, is_dynamic: true, expires_at: '2099-01-01T00:00:00.000Z' });
    await update(code.id, { content: { url: 'https://example.com/b' }, expires_at: null });
    expectStatus(await restore(code.id, 1), 200);
    const audit = (await call('GET', `/api/v1/audit-log?resource_id=${code.id}&limit=1`)).json();
    expect(audit.data[0]).toMatchObject({
      action: 'qrcode.update',
      key_prefix: keyPrefix,
      changes: { before: { content: { url: 'https://example.com/b' }, expires_at: null }, after: { content: { url: 'https://example.com/a' } } },
    });

    // Version 2 stored an expiry that has passed since (written here as time would have done it).
    await update(code.id, { expires_at: '2099-02-01T00:00:00.000Z' });
    await t.prisma.qrCodeVersion.update({
      where: { qrCodeId_version: { qrCodeId: code.id, version: 3 } },
      data: { state: { content: { url: 'https://example.com/a' }, status: 'active', expires_at: '2020-01-01T00:00:00.000Z' } },
    });
    const before = await storedVersions(code.id);
    const refused = expectFieldErrors(await restore(code.id, 3), 'expires_at');
    expect(refused[0].message).toBe('expires_at must be in the future');
    expect(await storedVersions(code.id)).toBe(before);
  });

  it('restoring the state the code has changes nothing and answers the current version', async () => {
    const code = await createQr(t, key, { content: { url: 'https://example.com/same' }, is_dynamic: true });
    const unchanged = await restore(code.id, 1);
    expectStatus(unchanged, 200);
    expect(unchanged.json()).toMatchObject({ version: 1, qrcode: { content_fields: { url: 'https://example.com/same' } } });
    expect(await storedVersions(code.id)).toBe(0);
    await update(code.id, { content: { url: 'https://example.com/other' } });
    await update(code.id, { content: { url: 'https://example.com/same' } });
    expect((await restore(code.id, 1)).json()).toMatchObject({ version: 3 });
    expect((await history(code.id)).pagination.total).toBe(3);
  });

  it('answers 404 for a version the code does not have, 400 for a version that is not a positive integer', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    expect(expectErrorBody(await restore(code.id, 2), 404).message).toBe('This QR code has no version 2');
    for (const bad of ['0', '-1', 'abc', '1.5', '99999999999']) expectFieldErrors(await restore(code.id, bad), 'version');
    expectFieldErrors(await restore('not-a-uuid', 1), 'id');
    expectErrorBody(await restore(NO_SUCH_ID, 1), 404);
    // A code that is not yours is not found, whatever the version says.
    expectErrorBody(await restore(NO_SUCH_ID, 'abc'), 404);
    expectErrorBody(await call('GET', `/api/v1/qrcodes/${NO_SUCH_ID}/history`), 404);
  });

  it("another account's code is not found: no history, no restore, nothing changed", async () => {
    const code = await createQr(t, key, { content: { url: 'https://example.com/mine' }, is_dynamic: true });
    await update(code.id, { content: { url: 'https://example.com/mine-2' } });
    const { key: strangerKey } = await t.newAccount();
    expect(expectErrorBody(await call('GET', `/api/v1/qrcodes/${code.id}/history`, strangerKey), 404).message).toBe('QR code not found');
    expectErrorBody(await restore(code.id, 1, strangerKey), 404);
    expect((await history(code.id)).pagination.total).toBe(2);
    expect((await scan(code.short_code)).headers.location).toBe('https://example.com/mine-2');
  });

  it('a folder-restricted key reads and restores codes in its folders only, and its prefix names the versions it made', async () => {
    const inFolder = (await createFolder(t, key, 'Agency')).id;
    const inside = await createQr(t, key, { content: { url: 'https://example.com/in-1' }, is_dynamic: true, folder_id: inFolder });
    const outside = await createQr(t, key, { content: { url: 'https://example.com/out-1' }, is_dynamic: true });
    await update(inside.id, { content: { url: 'https://example.com/in-2' } });
    await update(outside.id, { content: { url: 'https://example.com/out-2' } });
    const made = await t.request({
      method: 'POST',
      url: '/api/v1/admin/api-keys',
      headers: { 'x-admin-token': ADMIN_TOKEN },
      payload: { account_id: accountId, name: 'agency', folder_ids: [inFolder] },
    });
    expectStatus(made, 201);
    const { key: restricted, prefix: restrictedPrefix } = made.json();

    expect((await history(inside.id, '', restricted)).pagination.total).toBe(2);
    expectStatus(await restore(inside.id, 1, restricted), 200);
    expect((await history(inside.id)).data[0]).toMatchObject({ version: 3, key_prefix: restrictedPrefix, restored_from: 1 });

    expectErrorBody(await call('GET', `/api/v1/qrcodes/${outside.id}/history`, restricted), 404);
    expectErrorBody(await restore(outside.id, 1, restricted), 404);
    expect((await history(outside.id)).pagination.total).toBe(2);
  });

  it('a read-only key reads history but cannot restore (qrcodes:write)', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    const made = await t.request({
      method: 'POST',
      url: '/api/v1/admin/api-keys',
      headers: { 'x-admin-token': ADMIN_TOKEN },
      payload: { account_id: accountId, name: 'reader', scopes: ['qrcodes:read'] },
    });
    const reader = made.json().key as string;
    expect((await history(code.id, '', reader)).pagination.total).toBe(1);
    expect(expectErrorBody(await restore(code.id, 1, reader), 403).message).toContain('qrcodes:write');
  });

  it('concurrent changes of one code take versions 1, 2, 3… without gaps, the newest being the code as it is', async () => {
    const code = await createQr(t, key, { content: { url: 'https://example.com/c0' }, is_dynamic: true });
    await Promise.all(Array.from({ length: 12 }, (_, n) => update(code.id, { content: { url: `https://example.com/c${n + 1}` } })));
    const page = await history(code.id, '?limit=100');
    expect(page.data.map((entry) => entry.version)).toEqual(Array.from({ length: 13 }, (_, n) => 13 - n));
    const current = (await call('GET', `/api/v1/qrcodes/${code.id}`)).json();
    expect(page.data[0].after).toEqual({ content: current.content_fields });
    // Each version's before is the version below it's after: no change is lost between them.
    for (let n = 0; n < page.data.length - 1; n++) expect(page.data[n].before!.content).toEqual(page.data[n + 1].after.content);
  });

  it('deleting a code deletes its history', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    await update(code.id, { status: 'paused' });
    await update(code.id, { status: 'active' });
    expect(await storedVersions(code.id)).toBe(3);
    expectStatus(await call('DELETE', `/api/v1/qrcodes/${code.id}`), 200);
    expect(await storedVersions(code.id)).toBe(0);
    expectErrorBody(await call('GET', `/api/v1/qrcodes/${code.id}/history`), 404);
  });
});
