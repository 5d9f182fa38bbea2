import { ALL_SCOPES } from '../src/common/auth/scopes';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { buildOpenApiDocument } from '../src/infra/openapi/openapi-document';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app';
import {
  auth,
  createFolder,
  createQr,
  expectErrorBody,
  expectFieldErrors,
  expectStatus,
  GENEROUS_RATE_LIMIT,
  NO_SUCH_ID,
  eventually,
} from './support/factories';

interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  scope: string | undefined;
  operationId: string;
  keyed: boolean;
}

const READ_SCOPES = ALL_SCOPES.filter((scope) => scope.endsWith(':read'));

/** Every operation of the API, from the OpenAPI document Nest builds from the controllers. */
function routeTable(t: TestApp): Route[] {
  const document = buildOpenApiDocument(t.app, { baseUrl: 'http://api.test', redirectUrl: 'http://qr.test' });
  return Object.entries(document.paths).flatMap(([path, item]) =>
    (['get', 'post', 'put', 'patch', 'delete'] as const).flatMap((method) => {
      const operation = item[method] as (Record<string, unknown> & { operationId: string; security?: Array<Record<string, unknown>> }) | undefined;
      if (!operation) return [];
      // Public operations (health, metrics, the redirect host) say `security: []`; admin ones name the admin token.
      const keyed = operation.security === undefined || operation.security.some((requirement) => 'X-API-Key' in requirement);
      return [
        {
          method: method.toUpperCase() as Route['method'],
          path,
          scope: operation['x-required-scope'] as string | undefined,
          operationId: operation.operationId,
          keyed,
        },
      ];
    }),
  );
}

/** The path with every `{param}` filled: ids that exist nowhere (the guard answers before any lookup). */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, NO_SUCH_ID);

describe('scoped, folder-restricted and expiring API keys (e2e)', () => {
  let t: TestApp;
  let accountId: string;
  let ownerKey: string;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key: ownerKey, accountId } = await t.newAccount());
  });
  afterAll(() => t?.close());

  const adminCreate = (body: Record<string, unknown>) =>
    t.request({
      method: 'POST',
      url: '/api/v1/admin/api-keys',
      headers: { 'x-admin-token': ADMIN_TOKEN },
      payload: { account_id: accountId, ...body },
    });
  const keyWith = async (body: Record<string, unknown>): Promise<{ key: string; id: string }> => {
    const res = await adminCreate({ name: 'scoped', ...body });
    expectStatus(res, 201);
    return res.json();
  };
  const call = (key: string, method: string, url: string, payload?: unknown) =>
    t.request({ method: method as 'GET', url, headers: auth(key), ...(payload === undefined ? {} : { payload: payload as object }) });

  describe('the route table', () => {
    it('gives every keyed operation exactly one declared scope (a route added without one fails here)', () => {
      const routes = routeTable(t);
      expect(routes.length).toBeGreaterThan(25);
      expect(routes.filter((route) => route.keyed && !route.scope).map((route) => `${route.method} ${route.path}`)).toEqual([]);
      expect(routes.filter((route) => route.scope && !(ALL_SCOPES as readonly string[]).includes(route.scope))).toEqual([]);
      // Reads need :read, everything else :write (the style check writes nothing: a read).
      for (const route of routes.filter((r) => r.scope)) {
        // Posts that change nothing: a style check, a dry-run scan.
        const expected = route.method === 'GET' || route.operationId === 'checkStyle' || route.operationId === 'resolveQrCodeScan' ? 'read' : 'write';
        expect(`${route.operationId} ${route.scope!.split(':')[1]}`).toBe(`${route.operationId} ${expected}`);
      }
    });

    it("says each operation's scope in its description", () => {
      const document = buildOpenApiDocument(t.app, { baseUrl: 'http://api.test', redirectUrl: 'http://qr.test' });
      const create = document.paths['/api/v1/qrcodes'].post!;
      expect(create.description).toContain('Required scope: `qrcodes:write`');
      expect(document.paths['/api/v1/qrcodes/{id}/scans'].get!.description).toContain('`analytics:read`');
      expect(document.paths['/api/v1/qrcodes/{id}/scans.csv'].get!.description).toContain('`analytics:read`');
      expect(document.paths['/api/v1/qrcodes/{id}/scans'].delete!.description).toContain('`analytics:write`');
    });
  });

  describe('the matrix: every keyed route × keys that lack its scope, read-only keys, expired keys', () => {
    let routes: Route[];
    let readOnly: string;
    let nothingOfIt: Map<string, string>;

    beforeAll(async () => {
      routes = routeTable(t).filter((route) => route.scope);
      readOnly = (await keyWith({ scopes: READ_SCOPES })).key;
      // Per resource, a key holding every scope but that resource's.
      nothingOfIt = new Map();
      for (const resource of new Set(routes.map((route) => route.scope!.split(':')[0]))) {
        const others = ALL_SCOPES.filter((scope) => !scope.startsWith(`${resource}:`));
        nothingOfIt.set(resource, (await keyWith({ scopes: others })).key);
      }
    });

    it('answers 403 naming the scope to a key without the resource', async () => {
      const wrong: string[] = [];
      for (const route of routes) {
        const res = await call(
          nothingOfIt.get(route.scope!.split(':')[0])!,
          route.method,
          concrete(route.path),
          route.method === 'GET' ? undefined : {},
        );
        const body = res.statusCode === 403 ? res.json() : null;
        if (!body || !String(body.message).includes(route.scope!) || !body.request_id)
          wrong.push(`${route.method} ${route.path}: ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
      expect(wrong).toEqual([]);
    });

    it('lets a read-only key read, and refuses it every write with 403', async () => {
      const wrong: string[] = [];
      for (const route of routes) {
        const res = await call(readOnly, route.method, concrete(route.path), route.method === 'GET' ? undefined : {});
        const isRead = route.scope!.endsWith(':read');
        if (isRead ? res.statusCode === 403 || res.statusCode === 401 : res.statusCode !== 403)
          wrong.push(`${route.method} ${route.path}: ${res.statusCode}`);
      }
      expect(wrong).toEqual([]);
    });

    it('answers 401 "API key expired" on every route once a key expires', async () => {
      const expiring = await keyWith({ expires_at: new Date(Date.now() + 1500).toISOString() });
      expectStatus(await call(expiring.key, 'GET', '/api/v1/qrcodes'), 200);
      await new Promise((resolve) => setTimeout(resolve, 1600));
      const wrong: string[] = [];
      for (const route of routes) {
        const res = await call(expiring.key, route.method, concrete(route.path), route.method === 'GET' ? undefined : {});
        if (res.statusCode !== 401 || res.json().message !== 'API key expired') wrong.push(`${route.method} ${route.path}: ${res.statusCode}`);
      }
      expect(wrong).toEqual([]);
    });
  });

  describe('folder-restricted keys', () => {
    let inside: Record<string, any>;
    let outside: Record<string, any>;
    let unfiled: Record<string, any>;
    let folderA: string;
    let folderB: string;
    let restricted: string;

    beforeAll(async () => {
      folderA = (await createFolder(t, ownerKey, 'Agency A')).id;
      folderB = (await createFolder(t, ownerKey, 'Agency B')).id;
      inside = await createQr(t, ownerKey, { name: 'inside', folder_id: folderA, is_dynamic: true });
      outside = await createQr(t, ownerKey, { name: 'outside', folder_id: folderB, is_dynamic: true });
      unfiled = await createQr(t, ownerKey, { name: 'unfiled' });
      restricted = (await keyWith({ folder_ids: [folderA] })).key;
    });

    it.each([
      ['GET', ''],
      ['GET', '/image'],
      ['GET', '/scans'],
      ['PUT', ''],
    ])('%s /qrcodes/:id%s: a code in its folders answers, one outside answers 404 (it does not exist for the key)', async (method, suffix) => {
      const payload = method === 'PUT' ? { name: 'inside' } : undefined;
      const ok = await call(restricted, method, `/api/v1/qrcodes/${inside.id}${suffix}`, payload);
      expect([200, 204]).toContain(ok.statusCode);
      for (const code of [outside, unfiled]) expectErrorBody(await call(restricted, method, `/api/v1/qrcodes/${code.id}${suffix}`, payload), 404);
    });

    it('lists only codes and folders in its folders; the totals agree', async () => {
      const list = (await call(restricted, 'GET', '/api/v1/qrcodes?limit=100')).json();
      expect(list.data.map((code: { id: string }) => code.id)).toEqual([inside.id]);
      expect(list.pagination.total).toBe(1);
      const search = (await call(restricted, 'GET', '/api/v1/qrcodes?search=side')).json();
      expect(search.data.map((code: { id: string }) => code.id)).toEqual([inside.id]);
      const folders = (await call(restricted, 'GET', '/api/v1/folders')).json();
      expect(folders.data.map((folder: { id: string }) => folder.id)).toEqual([folderA]);
      // The account's unrestricted key still sees everything (cached searches are kept apart).
      expect((await call(ownerKey, 'GET', '/api/v1/qrcodes?search=side')).json().pagination.total).toBe(2);
    });

    it('creates only in its folders, refuses moving a code out, and cannot make folders', async () => {
      expectFieldErrors(await call(restricted, 'POST', '/api/v1/qrcodes', { type: 'text', content: { text: 'x' } }), 'folder_id');
      expectFieldErrors(await call(restricted, 'POST', '/api/v1/qrcodes', { type: 'text', content: { text: 'x' }, folder_id: folderB }), 'folder_id');
      expectStatus(await call(restricted, 'POST', '/api/v1/qrcodes', { type: 'text', content: { text: 'x' }, folder_id: folderA }), 201);
      const bulk = await call(restricted, 'POST', '/api/v1/qrcodes/bulk', { qrcodes: [{ type: 'text', content: { text: 'y' } }] });
      expect(JSON.stringify(bulk.json())).toContain('folder_id');
      expectFieldErrors(await call(restricted, 'PUT', `/api/v1/qrcodes/${inside.id}`, { folder_id: folderB }), 'folder_id');
      expectFieldErrors(await call(restricted, 'PUT', `/api/v1/qrcodes/${inside.id}`, { folder_id: null }), 'folder_id');
      expectErrorBody(await call(restricted, 'POST', '/api/v1/folders', { name: 'mine' }), 403);
      expectErrorBody(await call(restricted, 'DELETE', `/api/v1/qrcodes/${outside.id}`), 404);
      expectStatus(await call(ownerKey, 'GET', `/api/v1/qrcodes/${outside.id}`), 200);
    });

    it('scopes its webhooks to its folders', async () => {
      const url = 'https://hooks.example.com/qr';
      expectFieldErrors(await call(restricted, 'POST', '/api/v1/webhooks', { url, events: ['qrcode.created'] }), 'folder_id');
      const mine = await call(restricted, 'POST', '/api/v1/webhooks', { url, events: ['qrcode.created'], folder_id: folderA });
      expectStatus(mine, 201);
      const account = await call(ownerKey, 'POST', '/api/v1/webhooks', { url, events: ['qrcode.created'] });
      expectStatus(account, 201);
      const listed = (await call(restricted, 'GET', '/api/v1/webhooks')).json();
      expect(listed.data.map((hook: { id: string }) => hook.id)).toEqual([mine.json().id]);
      expectErrorBody(await call(restricted, 'GET', `/api/v1/webhooks/${account.json().id}`), 404);
    });

    it('answers 404 on every route of a code, folder or webhook outside its folders, and not on one inside', async () => {
      const url = 'https://hooks.example.com/matrix';
      const outsideHook = (await call(ownerKey, 'POST', '/api/v1/webhooks', { url, events: ['*'], folder_id: folderB })).json().id as string;
      const spare = async (kind: string): Promise<string> => {
        if (kind === 'qrcodes') return (await createQr(t, ownerKey, { folder_id: folderA })).id as string;
        if (kind === 'webhooks')
          return (await call(ownerKey, 'POST', '/api/v1/webhooks', { url, events: ['*'], folder_id: folderA })).json().id as string;
        return folderA;
      };
      const outsideOf: Record<string, string> = { qrcodes: outside.id, folders: folderB, webhooks: outsideHook };
      const routes = routeTable(t).filter((route) => /^\/api\/v1\/(qrcodes|folders|webhooks)\/\{id\}/.test(route.path));
      expect(routes.length).toBeGreaterThan(15);
      const wrong: string[] = [];
      for (const route of routes) {
        const kind = route.path.split('/')[3];
        // Bodies that pass validation, so that what answers is the lookup (an invalid body is refused before it, whoever owns the id).
        const valid: Record<string, object> = { 'PUT /api/v1/folders/{id}': { name: 'renamed' } };
        const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : (valid[`${route.method} ${route.path}`] ?? {});
        const query = route.path.endsWith('/replay')
          ? `?from=${new Date(Date.now() - 3_600_000).toISOString()}`
          : route.method === 'DELETE' && route.path.endsWith('/scans')
            ? `?before=${new Date().toISOString()}`
            : '';
        const away = await call(
          restricted,
          route.method,
          route.path.replace('{id}', outsideOf[kind]).replace(/\{[^}]+\}/g, NO_SUCH_ID) + query,
          body,
        );
        if (away.statusCode !== 404) wrong.push(`outside ${route.method} ${route.path}: ${away.statusCode} ${away.body.slice(0, 160)}`);
        // A delivery id names no delivery: only the routes without one can show that the resource itself was found.
        if (route.path.includes('{delivery_id}') || (kind === 'folders' && route.method === 'DELETE')) continue;
        const id = route.method === 'DELETE' ? await spare(kind) : kind === 'qrcodes' ? inside.id : await spare(kind);
        const near = await call(restricted, route.method, route.path.replace('{id}', id) + query, body);
        if (near.statusCode === 404 || near.statusCode >= 500)
          wrong.push(`inside ${route.method} ${route.path}: ${near.statusCode} ${near.body.slice(0, 100)}`);
      }
      expect(wrong).toEqual([]);
    });
  });

  describe('self-service keys and escalation', () => {
    let manager: { key: string; id: string };

    beforeAll(async () => {
      manager = await keyWith({ name: 'manager', scopes: ['keys:write', 'qrcodes:read'] });
    });

    it('creates a narrower key, shows the raw key once, lists keys with prefix and last use but never the key', async () => {
      const created = await call(manager.key, 'POST', '/api/v1/api-keys', { name: 'agency', scopes: ['qrcodes:read'] });
      expectStatus(created, 201);
      const body = created.json();
      expect(body).toMatchObject({ name: 'agency', scopes: ['qrcodes:read'], folder_ids: null, expires_at: null, account_id: accountId });
      expect(body.key).toMatch(/^qr_live_/);
      expectStatus(await call(body.key, 'GET', '/api/v1/qrcodes'), 200);
      // last_used_at is written beside the request, not in it.
      const lastUsed = () =>
        call(manager.key, 'GET', '/api/v1/api-keys?limit=100').then(
          (res) => res.json().data.find((key: { id: string }) => key.id === body.id).last_used_at !== null,
        );
      expect(await eventually(lastUsed, true)).toBe(true);
      const list = await call(manager.key, 'GET', '/api/v1/api-keys?limit=100');
      expectStatus(list, 200);
      const listed = list.json().data.find((key: { id: string }) => key.id === body.id);
      expect(listed).toMatchObject({ prefix: body.prefix, scopes: ['qrcodes:read'], last_used_at: expect.any(String) });
      expect(list.body).not.toContain(body.key);
      expect(list.json().data.every((key: { account_id: string }) => key.account_id === accountId)).toBe(true);
    });

    it.each([
      ['every scope (*)', { scopes: ['*'] }, 'scopes'],
      ['a scope it lacks', { scopes: ['webhooks:write'] }, 'scopes'],
      ['the default, every scope', {}, 'scopes'],
    ])('refuses to grant %s with 403 naming the field', async (_name, grant, field) => {
      const res = await call(manager.key, 'POST', '/api/v1/api-keys', { name: 'x', ...grant });
      const body = expectErrorBody(res, 403);
      expect(body.errors.map((error: { field: string }) => error.field)).toContain(field);
    });

    it('lets a folder-restricted key only narrow its folders, and an expiring key only mint keys that expire first', async () => {
      const folder = (await createFolder(t, ownerKey, 'Narrow')).id;
      const other = (await createFolder(t, ownerKey, 'Other')).id;
      const narrow = await keyWith({ scopes: ['keys:write'], folder_ids: [folder] });
      expect(expectErrorBody(await call(narrow.key, 'POST', '/api/v1/api-keys', { name: 'x', scopes: ['keys:read'] }), 403).errors[0].field).toBe(
        'folder_ids',
      );
      // Another folder does not exist for the narrow key: 400, not a hint that it exists.
      expectFieldErrors(
        await call(narrow.key, 'POST', '/api/v1/api-keys', { name: 'x', scopes: ['keys:read'], folder_ids: [other] }),
        'folder_ids[0]',
      );
      expectStatus(await call(narrow.key, 'POST', '/api/v1/api-keys', { name: 'x', scopes: ['keys:read'], folder_ids: [folder] }), 201);
      const soon = new Date(Date.now() + 3_600_000).toISOString();
      const expiring = await keyWith({ scopes: ['keys:write'], expires_at: soon });
      expect(expectErrorBody(await call(expiring.key, 'POST', '/api/v1/api-keys', { name: 'x', scopes: ['keys:read'] }), 403).errors[0].field).toBe(
        'expires_at',
      );
      expectStatus(await call(expiring.key, 'POST', '/api/v1/api-keys', { name: 'x', scopes: ['keys:read'], expires_at: soon }), 201);
    });

    it('refuses unknown scopes, folders of another account, a past expiry, null where it means nothing (400 naming the field)', async () => {
      const { key: strangerKey } = await t.newAccount();
      const strangersFolder = (await createFolder(t, strangerKey, 'Theirs')).id;
      expectFieldErrors(await adminCreate({ name: 'x', scopes: ['codes:write'] }), 'scopes[0]');
      expectFieldErrors(await adminCreate({ name: 'x', folder_ids: [strangersFolder] }), 'folder_ids[0]');
      expectFieldErrors(await adminCreate({ name: 'x', expires_at: '2020-01-01T00:00:00.000Z' }), 'expires_at');
      expectFieldErrors(await adminCreate({ name: 'x', scopes: null }), 'scopes');
      expectFieldErrors(await adminCreate({ name: 'x', folder_ids: [] }), 'folder_ids');
      expectFieldErrors(await call(ownerKey, 'POST', '/api/v1/api-keys', { name: 'x', account_id: NO_SUCH_ID }), 'account_id');
    });

    it("revokes keys of its own account only, never the account's last key that can manage keys; a revoked key stays revoked", async () => {
      const { key: soloKey } = await t.newAccount();
      const own = (await call(soloKey, 'GET', '/api/v1/api-keys')).json().data[0];
      expectFieldErrors(await call(soloKey, 'DELETE', `/api/v1/api-keys/${own.id}`), 'id');
      expectErrorBody(await call(soloKey, 'DELETE', `/api/v1/api-keys/${manager.id}`), 404);
      const second = (await call(soloKey, 'POST', '/api/v1/api-keys', { name: 'second' })).json();
      expectStatus(await call(second.key, 'DELETE', `/api/v1/api-keys/${own.id}`), 200);
      expectErrorBody(await call(soloKey, 'GET', '/api/v1/qrcodes'), 401);
      // Nothing brings a revoked key back: its own calls are refused before any route.
      expectErrorBody(await call(soloKey, 'POST', '/api/v1/api-keys', { name: 'again' }), 401);
      expectFieldErrors(await call(second.key, 'DELETE', `/api/v1/api-keys/${second.id}`), 'id');
    });
  });

  it('keeps the keys of the operator unchanged: a key made with no scopes holds every scope', async () => {
    const created = await t.app.get(ApiKeysService).create('plain', accountId);
    expect(created.scopes).toEqual(['*']);
    expectStatus(await call(created.key, 'POST', '/api/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['qrcode.created'] }), 201);
  });
});
