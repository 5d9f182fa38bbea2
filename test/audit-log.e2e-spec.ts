import { sql } from 'kysely';
import { AuditLogService } from '../src/audit/audit-log.service';
import { UpdateQrCodeDto } from '../src/qrcodes/dto/update-qr-code.dto';
import { QrCodeEvents } from '../src/qrcodes/qr-code-events';
import { acceptedFields } from './support/dto-fields';
import {
  auth,
  createFolder,
  createQr,
  expectErrorBody,
  expectFieldErrors,
  expectStatus,
  GENEROUS_RATE_LIMIT,
  TestClock,
  UUID,
} from './support/factories';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app';

type Entry = {
  id: string;
  created_at: string;
  key_id: string | null;
  key_prefix: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  request_id: string | null;
  changes: { before?: Record<string, unknown>; after?: Record<string, unknown>; ids?: string[] };
};

const DAY_MS = 24 * 60 * 60 * 1000;

describe('audit log (e2e)', () => {
  const clock = new TestClock();
  let t: TestApp;
  let key: string;
  let keyId: string;
  let keyPrefix: string;
  let accountId: string;
  /** Set by a test: the next code change fails in the database after its audit entry was written. */
  let failNextCodeChange = false;

  beforeAll(async () => {
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE: '1', ROLE: 'api' }, { clock });
    ({ key, accountId } = await t.newAccount());
    ({ id: keyId, prefix: keyPrefix } = await t.prisma.apiKey.findFirstOrThrow({ where: { accountId } }));
    // Registered after the audit log's listener: it runs later in the same transaction.
    t.app.get(QrCodeEvents).inTransaction(async (tx) => {
      if (!failNextCodeChange) return;
      failNextCodeChange = false;
      await sql`select 1 / 0`.execute(tx.anyAccount);
    });
  });
  afterAll(() => t?.close());

  const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, apiKey = key) =>
    t.request({ method, url, headers: auth(apiKey), ...(payload ? { payload } : {}) });

  const auditLog = async (query = '', apiKey = key) => {
    const res = await api('GET', `/api/v1/audit-log${query}`, undefined, apiKey);
    expectStatus(res, 200);
    return res.json<{ data: Entry[]; next_cursor: string | null }>();
  };
  const entriesOf = async (resourceId: string) => (await auditLog(`?resource_id=${resourceId}&limit=100`)).data;
  const entryCount = () => t.prisma.auditLogEntry.count({ where: { accountId } });

  /** Runs a write and returns the one entry it left (failing unless exactly one). */
  async function onlyEntryOf(write: () => Promise<{ headers: Record<string, unknown> }>): Promise<Entry> {
    const before = await entryCount();
    const res = await write();
    expect(await entryCount()).toBe(before + 1);
    const [entry] = (await auditLog('?limit=1')).data;
    expect(entry).toMatchObject({ key_id: keyId, key_prefix: keyPrefix, request_id: res.headers['x-request-id'] });
    expect(entry.created_at).toMatch(/Z$/);
    return entry;
  }

  it('a code create, update and delete each leave one entry with the changed fields before and after', async () => {
    let code: Record<string, any> = {};
    const created = await onlyEntryOf(async () => {
      const res = await api('POST', '/api/v1/qrcodes', { type: 'url', content: { url: 'https://example.com/a' }, name: 'Menu' });
      expectStatus(res, 201);
      code = res.json();
      return res;
    });
    expect(created).toMatchObject({ action: 'qrcode.create', resource_type: 'qrcode', resource_id: code.id });
    expect(created.changes.before).toBeUndefined();
    expect(created.changes.after).toMatchObject({ name: 'Menu', type: 'url', content: { url: 'https://example.com/a' }, is_dynamic: false });

    const updated = await onlyEntryOf(async () => {
      const res = await api('PUT', `/api/v1/qrcodes/${code.id}`, { name: 'Winter menu' });
      expectStatus(res, 200);
      return res;
    });
    expect(updated).toMatchObject({
      action: 'qrcode.update',
      resource_id: code.id,
      changes: { before: { name: 'Menu' }, after: { name: 'Winter menu' } },
    });

    const deleted = await onlyEntryOf(async () => {
      const res = await api('DELETE', `/api/v1/qrcodes/${code.id}`);
      expectStatus(res, 200);
      return res;
    });
    expect(deleted).toMatchObject({ action: 'qrcode.delete', resource_id: code.id });
    expect(deleted.changes.after).toBeUndefined();
    expect(deleted.changes.before).toMatchObject({ name: 'Winter menu', type: 'url' });
  });

  describe('every field a code update can set: one PUT each, one entry each with exactly that field before and after', () => {
    let dynamic: Record<string, any>;
    let folderId: string;
    let domainId: string;
    const future = '2031-01-01T00:00:00.000Z';
    const rules = [{ name: 'Phones', conditions: { device: ['mobile'] }, target: 'https://example.com/phones' }];
    /** Per field: the body of its PUT (on the one dynamic code, in this order, or on a new static code), and the entry's changes. */
    const cases: Record<string, () => { static?: true; body: object; before: object; after: object }> = {
      name: () => ({ body: { name: 'Renamed' }, before: { name: 'Audited' }, after: { name: 'Renamed' } }),
      content: () => ({
        body: { content: { url: 'https://example.com/b' } },
        before: { content: { url: 'https://example.com/a' } },
        after: { content: { url: 'https://example.com/b' } },
      }),
      style: () => ({
        body: { style: { dotsOptions: { type: 'dots' } } },
        before: { style: {} },
        after: { style: { dotsOptions: { type: 'dots' } } },
      }),
      folder_id: () => ({ body: { folder_id: folderId }, before: { folder_id: null }, after: { folder_id: folderId } }),
      is_dynamic: () => ({
        static: true,
        body: { is_dynamic: true },
        before: { is_dynamic: false, short_code: null },
        after: { is_dynamic: true, short_code: expect.stringMatching(/^[A-Za-z0-9]{8}$/) },
      }),
      short_code: () => ({
        static: true,
        body: { is_dynamic: true, short_code: 'audited-upgrade' },
        before: { is_dynamic: false, short_code: null },
        after: { is_dynamic: true, short_code: 'audited-upgrade' },
      }),
      domain_id: () => ({ body: { domain_id: domainId }, before: { domain_id: null }, after: { domain_id: domainId } }),
      status: () => ({ body: { status: 'paused' }, before: { status: 'active' }, after: { status: 'paused' } }),
      expires_at: () => ({ body: { expires_at: future }, before: { expires_at: null }, after: { expires_at: future } }),
      rules: () => ({ body: { rules }, before: { rules: [] }, after: { rules } }),
      max_scans: () => ({ body: { max_scans: 100 }, before: { max_scans: null }, after: { max_scans: 100 } }),
      fallback_url: () => ({
        body: { fallback_url: 'https://example.com/sold-out' },
        before: { fallback_url: null },
        after: { fallback_url: 'https://example.com/sold-out' },
      }),
      password: () => ({ body: { password: 'correct horse' }, before: { password: null }, after: { password: 'changed' } }),
      utm: () => ({
        body: { utm: { source: 'qr', campaign: 'spring' } },
        before: { utm: null },
        after: { utm: { source: 'qr', campaign: 'spring' } },
      }),
      scan_retention_days: () => ({ body: { scan_retention_days: 90 }, before: { scan_retention_days: null }, after: { scan_retention_days: 90 } }),
      tags: () => ({ body: { tags: ['spring', 'store-12'] }, before: { tags: [] }, after: { tags: ['spring', 'store-12'] } }),
      preview: () => ({
        body: { preview: { title: 'Spring menu', image_url: 'https://cdn.example.com/card.png' } },
        before: { preview: null },
        after: { preview: { title: 'Spring menu', image_url: 'https://cdn.example.com/card.png' } },
      }),
    };

    beforeAll(async () => {
      dynamic = await createQr(t, key, { name: 'Audited', content: { url: 'https://example.com/a' }, is_dynamic: true });
      folderId = (await createFolder(t, key, 'Audited')).id;
      const domain = await api('POST', '/api/v1/domains', { hostname: 'audited.example.com' });
      expectStatus(domain, 201);
      domainId = domain.json().id;
      await t.prisma.domain.update({ where: { id: domainId }, data: { status: 'verified', verifiedAt: new Date() } });
    });

    it('covers every field of the update body but type, which no update changes', () => {
      expect([...Object.keys(cases), 'type'].sort()).toEqual(acceptedFields(UpdateQrCodeDto));
    });

    it.each(Object.keys(cases))('%s', async (field) => {
      const { static: onStatic, body, before, after } = cases[field]();
      const code = onStatic ? await createQr(t, key, { type: 'text', content: { text: `static ${field}` } }) : dynamic;
      const entry = await onlyEntryOf(async () => {
        const res = await api('PUT', `/api/v1/qrcodes/${code.id}`, body);
        expectStatus(res, 200);
        return res;
      });
      expect(entry).toMatchObject({ action: 'qrcode.update', resource_type: 'qrcode', resource_id: code.id });
      expect(entry.changes).toEqual({ before, after });
      expect(JSON.stringify(entry)).not.toContain('correct horse');
    });

    it('a PUT that changes nothing (the same values again, the own type) answers 200 and leaves no entry', async () => {
      const before = await entryCount();
      const same = {
        name: 'Renamed',
        type: 'url',
        rules,
        max_scans: 100,
        utm: { campaign: 'spring', source: 'qr' },
        folder_id: folderId,
        status: 'paused',
      };
      expectStatus(await api('PUT', `/api/v1/qrcodes/${dynamic.id}`, same), 200);
      expectStatus(await api('PUT', `/api/v1/qrcodes/${dynamic.id}`, {}), 200);
      expect(await entryCount()).toBe(before);
    });

    it('a password set again is recorded as changed (a new hash), its removal as null', async () => {
      const again = await onlyEntryOf(() => api('PUT', `/api/v1/qrcodes/${dynamic.id}`, { password: 'correct horse' }));
      expect(again.changes).toEqual({ before: { password: 'changed' }, after: { password: 'changed' } });
      const removed = await onlyEntryOf(() => api('PUT', `/api/v1/qrcodes/${dynamic.id}`, { password: null }));
      expect(removed.changes).toEqual({ before: { password: 'changed' }, after: { password: null } });
    });
  });

  it('a bulk create is one entry with the ids it made', async () => {
    let ids: string[] = [];
    const entry = await onlyEntryOf(async () => {
      const res = await api('POST', '/api/v1/qrcodes/bulk', {
        qrcodes: [
          { type: 'text', content: { text: 'one' } },
          { type: 'text', content: { text: 'two' } },
          { type: 'text', content: {} },
        ],
      });
      expectStatus(res, 201);
      ids = res.json().created.map((item: { id: string }) => item.id);
      return res;
    });
    expect(ids).toHaveLength(2);
    expect(entry).toMatchObject({ action: 'qrcode.bulk_create', resource_type: 'qrcode', resource_id: null, changes: { ids } });
  });

  it('folder create, rename and delete each leave one entry', async () => {
    let id = '';
    const created = await onlyEntryOf(async () => {
      const res = await api('POST', '/api/v1/folders', { name: 'Spring' });
      expectStatus(res, 201);
      id = res.json().id;
      return res;
    });
    expect(created).toMatchObject({ action: 'folder.create', resource_type: 'folder', resource_id: id, changes: { after: { name: 'Spring' } } });
    const renamed = await onlyEntryOf(() => api('PUT', `/api/v1/folders/${id}`, { name: 'Summer' }));
    expect(renamed).toMatchObject({ action: 'folder.update', changes: { before: { name: 'Spring' }, after: { name: 'Summer' } } });
    const deleted = await onlyEntryOf(() => api('DELETE', `/api/v1/folders/${id}`));
    expect(deleted).toMatchObject({ action: 'folder.delete', changes: { before: { name: 'Summer' } } });
    expect(deleted.changes.after).toBeUndefined();
  });

  it('webhook writes leave one entry each; the signing secret is only ever "changed"', async () => {
    let id = '';
    let secret = '';
    const created = await onlyEntryOf(async () => {
      const res = await api('POST', '/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['qrcode.created'] });
      expectStatus(res, 201);
      ({ id, secret } = res.json());
      return res;
    });
    expect(created).toMatchObject({
      action: 'webhook.create',
      resource_type: 'webhook',
      resource_id: id,
      changes: { after: { url: 'http://127.0.0.1:9/hook', events: ['qrcode.created'], enabled: true, secret: 'changed' } },
    });
    const updated = await onlyEntryOf(() => api('PATCH', `/api/v1/webhooks/${id}`, { description: 'ops', enabled: true }));
    expect(updated).toMatchObject({ action: 'webhook.update', changes: { before: { description: '' }, after: { description: 'ops' } } });
    expect(Object.keys(updated.changes.after!)).toEqual(['description']);
    const rotated = await onlyEntryOf(() => api('POST', `/api/v1/webhooks/${id}/rotate-secret`));
    expect(rotated).toMatchObject({ action: 'webhook.rotate_secret', changes: { before: { secret: 'changed' }, after: { secret: 'changed' } } });
    const tested = await onlyEntryOf(() => api('POST', `/api/v1/webhooks/${id}/test`));
    expect(tested).toMatchObject({ action: 'webhook.test', resource_id: id, changes: { after: { delivery_id: expect.stringMatching(UUID) } } });
    const deleted = await onlyEntryOf(() => api('DELETE', `/api/v1/webhooks/${id}`));
    expect(deleted).toMatchObject({ action: 'webhook.delete', changes: { before: { url: 'http://127.0.0.1:9/hook', description: 'ops' } } });
    const all = JSON.stringify(await entriesOf(id));
    expect(all).not.toContain(secret);
  });

  it('key create and revoke leave one entry each, never the key; an admin-token write has no key id', async () => {
    let created: Record<string, any> = {};
    const entry = await onlyEntryOf(async () => {
      const res = await api('POST', '/api/v1/api-keys', { name: 'reader', scopes: ['audit:read'] });
      expectStatus(res, 201);
      created = res.json();
      return res;
    });
    expect(entry).toMatchObject({
      action: 'api_key.create',
      resource_type: 'api_key',
      resource_id: created.id,
      changes: { after: { name: 'reader', scopes: ['audit:read'], key: 'changed' } },
    });
    expect(JSON.stringify(entry)).not.toContain(created.key);

    const revoked = await onlyEntryOf(() => api('DELETE', `/api/v1/api-keys/${created.id}`));
    expect(revoked).toMatchObject({ action: 'api_key.revoke', resource_id: created.id, changes: { before: { revoked_at: null } } });

    const other = await t.request({
      method: 'POST',
      url: '/api/v1/admin/api-keys',
      headers: { 'x-admin-token': ADMIN_TOKEN },
      payload: { name: 'ops', account_id: accountId },
    });
    expectStatus(other, 201);
    const adminRevoke = await t.request({
      method: 'DELETE',
      url: `/api/v1/admin/api-keys/${other.json().id}`,
      headers: { 'x-admin-token': ADMIN_TOKEN },
    });
    expectStatus(adminRevoke, 200);
    const [revokedByAdmin, createdByAdmin] = (await auditLog('?resource_type=api_key&limit=2')).data;
    expect(createdByAdmin).toMatchObject({ action: 'api_key.create', key_id: null, key_prefix: 'admin', resource_id: other.json().id });
    expect(revokedByAdmin).toMatchObject({
      action: 'api_key.revoke',
      key_id: null,
      key_prefix: 'admin',
      request_id: adminRevoke.headers['x-request-id'],
    });
  });

  it('a refused write (4xx) leaves no entry', async () => {
    const code = await createQr(t, key);
    const before = await entryCount();
    expectFieldErrors(await api('PUT', `/api/v1/qrcodes/${code.id}`, { name: '' }), 'name');
    expectErrorBody(await api('DELETE', '/api/v1/folders/00000000-0000-4000-8000-000000000000'), 404);
    expectFieldErrors(await api('POST', '/api/v1/folders', { name: '' }), 'name');
    expectErrorBody(await api('PATCH', '/api/v1/webhooks/00000000-0000-4000-8000-000000000000', { description: 'x' }), 404);
    expect(await entryCount()).toBe(before);
  });

  it('a database error in the middle of the transaction leaves neither the change nor its entry', async () => {
    const code = await createQr(t, key, { name: 'Kept' });
    const before = await entryCount();
    failNextCodeChange = true;
    expectErrorBody(await api('PUT', `/api/v1/qrcodes/${code.id}`, { name: 'Lost' }), 500);
    expect(await entryCount()).toBe(before);
    expect((await t.prisma.qrCode.findUniqueOrThrow({ where: { id: code.id } })).name).toBe('Kept');
  });

  it('concurrent updates of one code are listed in commit order: each entry starts where the one before ended', async () => {
    const code = await createQr(t, key, { name: 'start' });
    const names = Array.from({ length: 8 }, (_, index) => `name-${index}`);
    const results = await Promise.all(names.map((name) => api('PUT', `/api/v1/qrcodes/${code.id}`, { name })));
    for (const res of results) expectStatus(res, 200);
    const updates = (await auditLog(`?resource_id=${code.id}&action=qrcode.update`)).data.reverse();
    expect(updates).toHaveLength(names.length);
    let current = 'start';
    for (const entry of updates) {
      expect(entry.changes.before).toEqual({ name: current });
      current = entry.changes.after!.name as string;
    }
    expect((await t.prisma.qrCode.findUniqueOrThrow({ where: { id: code.id } })).name).toBe(current);
  });

  it('filters by resource, key, action and time, and pages newest first with an opaque cursor', async () => {
    const folder = await createFolder(t, key, 'Paged');
    for (const name of ['p1', 'p2', 'p3', 'p4']) expectStatus(await api('PUT', `/api/v1/folders/${folder.id}`, { name }), 200);
    const all = (await auditLog(`?resource_type=folder&resource_id=${folder.id}`)).data;
    expect(all.map((entry) => entry.action)).toEqual(['folder.update', 'folder.update', 'folder.update', 'folder.update', 'folder.create']);

    const first = await auditLog(`?resource_id=${folder.id}&limit=2`);
    expect(first.data.map((entry) => entry.changes.after)).toEqual([{ name: 'p4' }, { name: 'p3' }]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await auditLog(`?resource_id=${folder.id}&limit=2&cursor=${first.next_cursor}`);
    expect(second.data.map((entry) => entry.changes.after)).toEqual([{ name: 'p2' }, { name: 'p1' }]);
    const last = await auditLog(`?resource_id=${folder.id}&limit=2&cursor=${second.next_cursor}`);
    expect(last.data.map((entry) => entry.action)).toEqual(['folder.create']);
    expect(last.next_cursor).toBeNull();

    expect((await auditLog(`?resource_id=${folder.id}&action=folder.create`)).data).toHaveLength(1);
    expect((await auditLog(`?resource_id=${folder.id}&key_id=${keyId}`)).data).toHaveLength(5);
    expect((await auditLog(`?resource_id=${folder.id}&key_id=00000000-0000-4000-8000-000000000000`)).data).toEqual([]);
    const at = all[0].created_at;
    expect((await auditLog(`?resource_id=${folder.id}&from=${new Date(Date.parse(at) + 1).toISOString()}`)).data).toEqual([]);
    expect((await auditLog(`?resource_id=${folder.id}&to=${new Date(Date.parse(all[4].created_at)).toISOString()}`)).data).toEqual([]);
    expect(
      (await auditLog(`?resource_id=${folder.id}&from=${all[4].created_at}&to=${new Date(Date.parse(at) + 1).toISOString()}`)).data,
    ).toHaveLength(5);

    expectFieldErrors(await api('GET', '/api/v1/audit-log?from=yesterday'), 'from');
    expectFieldErrors(await api('GET', '/api/v1/audit-log?key_id=nope'), 'key_id');
    expectFieldErrors(await api('GET', '/api/v1/audit-log?cursor=bm9wZQ'), 'cursor');
    expectFieldErrors(await api('GET', '/api/v1/audit-log?limit=101'), 'limit');
  });

  it('shows only the account’s own entries, and needs audit:read', async () => {
    const { key: strangerKey } = await t.newAccount();
    const strangers = await auditLog('?limit=100', strangerKey);
    expect(strangers.data.map((entry) => entry.action)).toEqual(['api_key.create']);

    const reader = (await api('POST', '/api/v1/api-keys', { name: 'auditor', scopes: ['audit:read'] })).json().key as string;
    const writer = (await api('POST', '/api/v1/api-keys', { name: 'writer', scopes: ['qrcodes:write'] })).json().key as string;
    expect((await auditLog('?limit=1', reader)).data).toHaveLength(1);
    const refused = expectErrorBody(await api('GET', '/api/v1/audit-log', undefined, writer), 403);
    expect(refused.message).toContain('audit:read');
  });

  it('reads are not logged', async () => {
    const code = await createQr(t, key);
    const before = await entryCount();
    expectStatus(await api('GET', `/api/v1/qrcodes/${code.id}`), 200);
    expectStatus(await api('GET', '/api/v1/qrcodes'), 200);
    await auditLog();
    expect(await entryCount()).toBe(before);
  });

  it('the retention sweep deletes entries older than AUDIT_RETENTION_DAYS (365), and only those', async () => {
    const total = await entryCount();
    expect(total).toBeGreaterThan(0);
    clock.advance(364 * DAY_MS);
    expect(await t.app.get(AuditLogService).sweep()).toBe(0);
    expect(await entryCount()).toBe(total);
    clock.advance(2 * DAY_MS);
    expect(await t.app.get(AuditLogService).sweep()).toBeGreaterThanOrEqual(total);
    expect(await entryCount()).toBe(0);
  });
});
