import createClient from 'openapi-fetch';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { paths } from './generated/openapi-types';
import { decodeSvg } from './support/decode-svg';
import { GENEROUS_RATE_LIMIT, NO_SUCH_ID } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/** Written by `npm run openapi:types` (test/support/write-openapi-types.ts). */
const GENERATED_TYPES_FILE = join(__dirname, 'generated', 'openapi-types.ts');

/**
 * A client typed by the OpenAPI document drives the API over HTTP: openapi-typescript's types
 * (generated before `tsc` checks this file, and again here from the live /docs-json, which must
 * give the same text) and openapi-fetch. A wrong field name, a missing required field or a
 * mistyped value in the calls below fails type-checking; the assertions check the runtime answers.
 */
describe('typed client (e2e)', () => {
  let t: TestApp;
  let client: ReturnType<typeof createClient<paths>>;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { key } = await t.newAccount();
    client = createClient<paths>({ baseUrl: await t.app.getUrl(), headers: { 'X-API-Key': key } });
  });
  afterAll(() => t.close());

  it('is typed from the live document: /docs-json gives the types tsc checked', async () => {
    const live = await (await fetch(`${await t.app.getUrl()}/docs-json`)).text();
    const dir = mkdtempSync(join(tmpdir(), 'qr-openapi-types-'));
    try {
      writeFileSync(join(dir, 'openapi.json'), live);
      await promisify(execFile)(
        'node',
        ['-r', '@swc-node/register', 'test/support/write-openapi-types.ts', join(dir, 'openapi.json'), join(dir, 'types.ts')],
        {
          cwd: join(__dirname, '..'),
        },
      );
      expect(existsSync(GENERATED_TYPES_FILE)).toBe(true);
      // On a difference: `npm run openapi:types` (npm test and npm run check run it first).
      expect(readFileSync(GENERATED_TYPES_FILE, 'utf8')).toBe(readFileSync(join(dir, 'types.ts'), 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('creates, bulk creates, lists, gets, updates, renders and deletes', async () => {
    const created = await client.POST('/api/v1/qrcodes', {
      body: {
        type: 'url',
        name: 'Typed poster',
        content: { url: 'https://example.com/typed' },
        is_dynamic: true,
        style: { dotsOptions: { type: 'rounded', color: '#1a237e' }, margin: 12 },
      },
    });
    expect(created.response.status).toBe(201);
    const code = created.data!;
    expect(code).toMatchObject({ name: 'Typed poster', status: 'active', scans: 0, is_dynamic: true });
    const dynamicUrl: string = code.dynamic_url!;
    expect(dynamicUrl).toBe(`http://qr.test/r/${code.short_code}`);

    const bulk = await client.POST('/api/v1/qrcodes/bulk', {
      body: {
        qrcodes: [
          { type: 'wifi', content: { ssid: 'Typed Wi-Fi', password: 'correct horse battery', encryption: 'WPA' } },
          { type: 'text', name: 'Typed note', content: { text: 'typed' } },
          { type: 'url', content: { url: 'javascript:alert(1)' } },
        ],
      },
    });
    expect(bulk.response.status).toBe(201);
    const summary: { total_created: number; total_failed: number } = bulk.data!.summary;
    expect(summary).toMatchObject({ total_created: 2, total_failed: 1 });
    expect(bulk.data!.errors[0]).toMatchObject({ index: 2, errors: [expect.objectContaining({ field: 'content.url' })] });

    const listed = await client.GET('/api/v1/qrcodes', { params: { query: { type: 'wifi', sort: 'name-asc', limit: 10 } } });
    expect(listed.response.status).toBe(200);
    expect(listed.data!.pagination).toEqual({ page: 1, limit: 10, total: 1, total_pages: 1 });
    expect(listed.data!.data[0].content).toBe('WIFI:T:WPA;S:Typed Wi-Fi;P:correct horse battery;;');

    const fetched = await client.GET('/api/v1/qrcodes/{id}', { params: { path: { id: code.id } } });
    expect(fetched.data).toMatchObject({ id: code.id, folder_id: null });
    expect(JSON.parse(fetched.data!.style_config)).toEqual({ dotsOptions: { type: 'rounded', color: '#1a237e' }, margin: 12 });

    const updated = await client.PUT('/api/v1/qrcodes/{id}', {
      params: { path: { id: code.id } },
      body: {
        name: 'Typed poster (final)',
        content: { url: 'https://example.com/typed-final' },
        folder_id: null,
        expires_at: null,
        status: 'active',
      },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data!.message).toBe('QR code updated');
    const afterUpdate = await client.GET('/api/v1/qrcodes/{id}', { params: { path: { id: code.id } } });
    expect(afterUpdate.data).toMatchObject({ name: 'Typed poster (final)', content: 'https://example.com/typed-final' });

    const image = await client.GET('/api/v1/qrcodes/{id}/image', {
      params: { path: { id: code.id }, query: { size: 400, format: 'svg' } },
      parseAs: 'text',
    });
    expect(image.response.status).toBe(200);
    expect(image.response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(decodeSvg(image.data as string)).toBe(dynamicUrl);

    const deleted = await client.DELETE('/api/v1/qrcodes/{id}', { params: { path: { id: code.id } } });
    expect(deleted.data!.message).toBe('QR code deleted');
    const gone = await client.GET('/api/v1/qrcodes/{id}', { params: { path: { id: code.id } } });
    expect(gone.response.status).toBe(404);
    expect(gone.error).toMatchObject({ statusCode: 404, error: 'Not Found', message: 'QR code not found' });
  });

  it('answers documented errors in the typed error shape', async () => {
    const invalid = await client.GET('/api/v1/qrcodes', { params: { query: { limit: 500 } } });
    expect(invalid.response.status).toBe(400);
    const fields: string[] = invalid.error!.errors!.map((error) => error.field);
    expect(fields).toEqual(['limit']);

    const missing = await client.GET('/api/v1/qrcodes/{id}/scans', { params: { path: { id: NO_SUCH_ID } } });
    expect(missing.error?.statusCode).toBe(404);
  });

  it('rejects wrong calls at compile time', () => {
    // Never sent: these exist for tsc, which must find each error below (else @ts-expect-error is itself an error).
    const wrongCalls = () => [
      // @ts-expect-error is_dynamic is a boolean
      client.POST('/api/v1/qrcodes', { body: { type: 'url', content: { url: 'https://example.com' }, is_dynamic: 'yes' } }),
      // @ts-expect-error type is required
      client.POST('/api/v1/qrcodes', { body: { content: { url: 'https://example.com' } } }),
      // @ts-expect-error status is active or paused
      client.PUT('/api/v1/qrcodes/{id}', { params: { path: { id: NO_SUCH_ID } }, body: { status: 'deleted' } }),
      // @ts-expect-error the list has no such parameter
      client.GET('/api/v1/qrcodes', { params: { query: { colour: 'red' } } }),
    ];
    expect(typeof wrongCalls).toBe('function');
  });
});
