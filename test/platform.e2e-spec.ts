import { ApiKeysService } from '../src/auth/api-keys.service';
import { UNSUPPORTED_MEDIA_TYPE_MESSAGE } from '../src/infra/http/json-body-parser';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectErrorShape(body: Record<string, unknown>, statusCode: number) {
  expect(body).toMatchObject({ statusCode, error: expect.any(String), message: expect.any(String), request_id: expect.any(String) });
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+|node_modules|PrismaClient|SELECT /);
}

describe('platform (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ key } = await t.newAccount());
  });
  afterAll(() => t.close());

  describe('authentication', () => {
    it('401 without a key, in the error shape', async () => {
      const res = await t.request({ method: 'GET', url: '/api/v1/admin/does-not-matter' });
      expect(res.statusCode).toBe(404);
      const missing = await t.request({ method: 'GET', url: '/api/v1/qrcodes' });
      expect(missing.statusCode).toBe(401);
      expectErrorShape(missing.json(), 401);
      expect(missing.json().message).toMatch(/X-API-Key/);
    });

    it('401 for a wrong key, and for a well-formed unknown key', async () => {
      for (const wrong of ['nope', 'qr_live_' + 'x'.repeat(40), key + 'x']) {
        const res = await t.request({ method: 'GET', url: '/api/v1/qrcodes', headers: { 'x-api-key': wrong } });
        expect(res.statusCode).toBe(401);
        expectErrorShape(res.json(), 401);
      }
    });

    it('does not accept the key in the query string', async () => {
      for (const name of ['api_key', 'apiKey', 'key', 'x-api-key']) {
        const res = await t.request({ method: 'GET', url: `/api/v1/qrcodes?${name}=${key}` });
        expect(res.statusCode).toBe(401);
      }
    });

    it('accepts a valid key in the header and records last_used_at', async () => {
      const { key: fresh, accountId } = await t.newAccount();
      const res = await t.request({ method: 'GET', url: '/api/v1/qrcodes', headers: { 'x-api-key': fresh } });
      expect(res.statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const stored = await t.prisma.apiKey.findFirst({ where: { accountId } });
      expect(stored?.lastUsedAt).toBeInstanceOf(Date);
    });

    it('stores only the hash of a key', async () => {
      const { key: fresh, accountId } = await t.newAccount();
      const stored = await t.prisma.apiKey.findFirstOrThrow({ where: { accountId } });
      expect(JSON.stringify(stored)).not.toContain(fresh);
      expect(stored.keyHash).toMatch(/^[0-9a-f]{64}$/);
    });
  });

  describe('admin API', () => {
    const admin = { 'x-admin-token': ADMIN_TOKEN };

    it('creates, lists and revokes keys; a revoked key gets 401', async () => {
      const created = await t.request({ method: 'POST', url: '/api/v1/admin/api-keys', headers: admin, payload: { name: 'ci' } });
      expect(created.statusCode).toBe(201);
      const body = created.json();
      expect(body).toMatchObject({
        id: expect.stringMatching(UUID),
        name: 'ci',
        account_id: expect.stringMatching(UUID),
        request_id: expect.any(String),
      });
      expect(body.key).toMatch(/^qr_live_[0-9A-Za-z]{40}$/);
      expect(body.key.startsWith(body.prefix)).toBe(true);
      expect(new Date(body.created_at).toISOString()).toBe(body.created_at);

      const works = await t.request({ method: 'GET', url: '/api/v1/qrcodes', headers: { 'x-api-key': body.key } });
      expect(works.statusCode).toBe(200);

      const rotated = await t.request({
        method: 'POST',
        url: '/api/v1/admin/api-keys',
        headers: admin,
        payload: { name: 'second', account_id: body.account_id },
      });
      expect(rotated.statusCode).toBe(201);
      expect(rotated.json().account_id).toBe(body.account_id);

      const list = await t.request({ method: 'GET', url: '/api/v1/admin/api-keys', headers: admin });
      expect(list.statusCode).toBe(200);
      const listed = list.json().data.find((k: { id: string }) => k.id === body.id);
      expect(listed).toMatchObject({ name: 'ci', prefix: body.prefix, revoked_at: null });
      expect(list.body).not.toContain(body.key);
      expect(list.body).not.toMatch(/[0-9a-f]{64}/);
      const { total } = list.json().pagination;
      const last = await t.request({ method: 'GET', url: `/api/v1/admin/api-keys?limit=1&page=${total}`, headers: admin });
      expect(last.json()).toMatchObject({ data: [{ id: rotated.json().id }], pagination: { page: total, limit: 1, total, total_pages: total } });

      const revoked = await t.request({ method: 'DELETE', url: `/api/v1/admin/api-keys/${body.id}`, headers: admin });
      expect(revoked.statusCode).toBe(200);
      expect(revoked.json()).toMatchObject({ message: expect.any(String), request_id: expect.any(String) });

      const after = await t.request({ method: 'GET', url: '/api/v1/qrcodes', headers: { 'x-api-key': body.key } });
      expect(after.statusCode).toBe(401);
      const again = await t.request({ method: 'DELETE', url: `/api/v1/admin/api-keys/${body.id}`, headers: admin });
      expect(again.statusCode).toBe(404);
    });

    it('rejects a wrong admin token, an API key in its place, and a missing name', async () => {
      const wrong = await t.request({ method: 'GET', url: '/api/v1/admin/api-keys', headers: { 'x-admin-token': 'wrong' } });
      expect(wrong.statusCode).toBe(401);
      const apiKey = await t.request({ method: 'GET', url: '/api/v1/admin/api-keys', headers: { 'x-api-key': key } });
      expect(apiKey.statusCode).toBe(401);
      const invalid = await t.request({ method: 'POST', url: '/api/v1/admin/api-keys', headers: admin, payload: {} });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'name' })]));
      const unknownAccount = await t.request({
        method: 'POST',
        url: '/api/v1/admin/api-keys',
        headers: admin,
        payload: { name: 'x', account_id: '00000000-0000-4000-8000-000000000000' },
      });
      expect(unknownAccount.statusCode).toBe(400);
    });
  });

  describe('request ids and the error shape', () => {
    it('puts X-Request-Id on every response and request_id in the body, reusing a valid incoming id', async () => {
      const res = await t.request({ method: 'GET', url: '/health/live', headers: { 'x-request-id': 'trace-abc.123' } });
      expect(res.headers['x-request-id']).toBe('trace-abc.123');
      expect(res.json().request_id).toBe('trace-abc.123');
      const generated = await t.request({ method: 'GET', url: '/health/live' });
      expect(generated.headers['x-request-id']).toMatch(UUID);
      expect(generated.json().request_id).toBe(generated.headers['x-request-id']);
    });

    it('replaces an unsafe incoming id', async () => {
      const res = await t.request({ method: 'GET', url: '/health/live', headers: { 'x-request-id': 'bad id\twith spaces' } });
      expect(res.headers['x-request-id']).toMatch(UUID);
    });

    it('404 for an unknown route, in the error shape', async () => {
      const res = await t.request({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': 'rid-404' } });
      expect(res.statusCode).toBe(404);
      expectErrorShape(res.json(), 404);
      expect(res.json().request_id).toBe('rid-404');
    });

    it('400 for malformed JSON, in the error shape', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/admin/api-keys',
        headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
        payload: '{"name": ',
      });
      expect(res.statusCode).toBe(400);
      expectErrorShape(res.json(), 400);
      expect(res.json().message).toMatch(/JSON/);
    });

    it('400 for JSON nested too deeply, without a stack overflow', async () => {
      const deep = '['.repeat(100_000) + ']'.repeat(100_000);
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/admin/api-keys',
        headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
        payload: deep,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/nested/);
    });

    it('413 for a body over 1 MiB, in the error shape', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/admin/api-keys',
        headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }),
      });
      expect(res.statusCode).toBe(413);
      expectErrorShape(res.json(), 413);
    });

    it.each([
      ['text/plain', 'text/plain'],
      ['text/plain with a charset', 'text/plain; charset=utf-8'],
      ['a form', 'application/x-www-form-urlencoded'],
    ])('415 for a JSON body sent as %s, in the error shape, without field errors', async (_case, contentType) => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/admin/api-keys',
        headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': contentType },
        payload: '{"name":"x"}',
      });
      expect(res.statusCode).toBe(415);
      expectErrorShape(res.json(), 415);
      expect(res.json().message).toBe(UNSUPPORTED_MEDIA_TYPE_MESSAGE);
      expect(res.json().errors).toBeUndefined();
    });

    it('one message per field: a string where the bulk array belongs', async () => {
      const res = await t.request({ method: 'POST', url: '/api/v1/qrcodes/bulk', headers: { 'x-api-key': key }, payload: { qrcodes: 'x' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'qrcodes', message: 'qrcodes must be an array' }]);
      expect(res.json().message).toBe('Validation failed: qrcodes must be an array');
    });

    it('one message per field: a word for the page number', async () => {
      const res = await t.request({ method: 'GET', url: '/api/v1/qrcodes?page=abc', headers: { 'x-api-key': key } });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'page', message: 'page must be an integer' }]);
    });

    it('400 for validation failures names each field', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/admin/api-keys',
        headers: { 'x-admin-token': ADMIN_TOKEN },
        payload: { name: 'x'.repeat(101), extra: 1 },
      });
      expect(res.statusCode).toBe(400);
      expectErrorShape(res.json(), 400);
      const fields = res.json().errors.map((e: { field: string }) => e.field);
      expect(fields).toEqual(expect.arrayContaining(['name', 'extra']));
    });

    it('500 for an unexpected error, with no internals', async () => {
      const fastify = t.app.getHttpAdapter().getInstance();
      const service = t.app.get(ApiKeysService);
      const spy = jest.spyOn(service, 'page').mockRejectedValueOnce(new Error('secret internal detail at /srv/app.ts:12'));
      const res = await t.request({ method: 'GET', url: '/api/v1/admin/api-keys', headers: { 'x-admin-token': ADMIN_TOKEN } });
      spy.mockRestore();
      expect(fastify).toBeDefined();
      expect(res.statusCode).toBe(500);
      expectErrorShape(res.json(), 500);
      expect(res.body).not.toContain('secret internal detail');
      expect(res.json().message).toBe('Internal server error');
    });
  });

  describe('docs and health', () => {
    it('serves Swagger UI at /docs and OpenAPI JSON with the X-API-Key scheme', async () => {
      const ui = await t.request({ method: 'GET', url: '/docs' });
      expect(ui.statusCode).toBe(200);
      expect(ui.body).toContain('swagger-ui');
      const json = await t.request({ method: 'GET', url: '/docs-json' });
      expect(json.statusCode).toBe(200);
      expect(json.json().components.securitySchemes['api-key']).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    });

    it('answers /health/live and /health/ready with the database up', async () => {
      expect((await t.request({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
      const ready = await t.request({ method: 'GET', url: '/health/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json().components.database.status).toBe('up');
      expect(ready.headers['x-ratelimit-limit']).toBeUndefined();
    });

    it('exposes Prometheus metrics without a key', async () => {
      const res = await t.request({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('http_request_duration_seconds');
    });
  });
});
