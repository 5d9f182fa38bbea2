import type { OpenAPIObject, ExampleObject, RequestBodyObject } from '@nestjs/swagger';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { errorShapeProblems } from './support/error-shape';
import { GENEROUS_RATE_LIMIT, NO_SUCH_ID } from './support/factories';
import {
  type DocumentedOperation,
  documentedStatuses,
  operationsOf,
  parametersOf,
  ResponseValidator,
  responseOf,
  securityOf,
} from './support/openapi';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app';
import { TestDnsServer } from './support/dns-server';

/**
 * The published OpenAPI document is complete and true: every operation's examples succeed as
 * they stand, in order, against a fresh account, and every answer (success or error) has a
 * documented status and conforms to its documented schema. Operations are read from the document
 * itself, so one added later is covered without touching this file, and one without a working
 * example fails here.
 */

/**
 * Creates first, then reads, then updates and actions, then the same for nested resources (a
 * webhook's deliveries), deletes last (a nested resource's before its parent's): the order a person trying the API follows.
 */
const PHASE = { post: 0, get: 1, put: 2, patch: 2, delete: 9 } as const;

function runOrder(operations: DocumentedOperation[]): DocumentedOperation[] {
  const creates = new Set(operations.filter((op) => op.method === 'post').map((op) => op.path));
  // A delete of something under a resource (a code's scans), or of a resource made under another
  // (a code's share link, created by POST …/qrcodes/{id}/share-links), before the resource's own delete.
  const nestedDelete = (op: DocumentedOperation) =>
    op.method === 'delete' && (/\}\/[^{}]+$/.test(op.path) || !creates.has(op.path.slice(0, op.path.indexOf('/{'))));
  const phase = (op: DocumentedOperation) => {
    const own = op.method === 'post' && op.path.includes('{') ? 2 : nestedDelete(op) ? 8 : PHASE[op.method];
    return op.method !== 'delete' && parametersOf(op, 'path').length > 1 ? 5 + own : own;
  };
  return [...operations].sort((a, b) => phase(a) - phase(b));
}

/** The media type an operation's request body is sent as (JSON, or CSV for imports), or null without a body. */
function requestMedia(op: DocumentedOperation): string | null {
  const body = op.operation.requestBody as RequestBodyObject | undefined;
  return body ? (Object.keys(body.content)[0] ?? null) : null;
}

function requestExamples(op: DocumentedOperation): Array<{ name: string; value: unknown }> | 'missing' | null {
  const body = op.operation.requestBody as RequestBodyObject | undefined;
  if (!body) return null;
  const media = body.content[requestMedia(op) ?? 'application/json'];
  const examples = Object.entries(media?.examples ?? {}).map(([name, example]) => ({ name, value: (example as ExampleObject).value }));
  if (media?.example !== undefined) examples.unshift({ name: 'example', value: media.example });
  const schemaExample = (media?.schema as { example?: unknown } | undefined)?.example;
  if (examples.length === 0 && schemaExample !== undefined) examples.push({ name: 'schema example', value: schemaExample });
  return examples.length ? examples : 'missing';
}

/** Query parameters with an example, as Swagger UI's "Try it out" pre-fills them. */
const prefilledQuery = (op: DocumentedOperation): Record<string, string> =>
  Object.fromEntries(
    parametersOf(op, 'query').flatMap((parameter) => {
      const example = parameter.example ?? (parameter.schema as { example?: unknown } | undefined)?.example;
      return example === undefined ? [] : [[parameter.name, String(example)]];
    }),
  );

/** The collection a path's `{id}` belongs to: `/api/v1/qrcodes/{id}/image` → `/api/v1/qrcodes`. */
const collectionOf = (path: string) => path.slice(0, path.indexOf('/{'));

/** The first resource created in a collection: by its own create, or by a nested one ending in the same segment. */
const createdIn = (created: Map<string, Record<string, unknown>>, collection: string) =>
  created.get(collection) ??
  [...created.entries()].find(([path]) => path.includes('{') && path.endsWith(collection.slice(collection.lastIndexOf('/'))))?.[1];

const successStatuses = (op: DocumentedOperation) => documentedStatuses(op).filter((status) => status < 400);

describe('OpenAPI document (e2e)', () => {
  let t: TestApp;
  let document: OpenAPIObject;
  let validator: ResponseValidator;
  let dns: TestDnsServer;

  beforeAll(async () => {
    // The verify example needs its TXT record: a DNS server publishes every domain's own token.
    dns = await new TestDnsServer().start();
    dns.fallback = async (name) => {
      const domain = await t.prisma.domain.findFirst({ where: { hostname: name.replace(/^_qr-verify\./, '') } });
      return domain ? { txt: [domain.verificationToken] } : undefined;
    };
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, DNS_RESOLVERS: dns.address });
    const res = await t.request({ method: 'GET', url: '/docs-json' });
    expect(res.statusCode).toBe(200);
    document = res.json();
    validator = new ResponseValidator(document);
  });
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  const credentialsFor = (op: DocumentedOperation, apiKey: string): Record<string, string> => {
    const headers: Record<string, string> = {};
    for (const scheme of securityOf(document, op)) {
      if (scheme === 'api-key') headers['x-api-key'] = apiKey;
      else if (scheme === 'admin-token') headers['x-admin-token'] = ADMIN_TOKEN;
      else throw new Error(`${op.label}: unknown security scheme ${scheme}`);
    }
    return headers;
  };

  /** Checks that `res` answers a documented status with a body its schema allows; returns the problems. */
  const conformance = (op: DocumentedOperation, res: LightMyRequestResponse, allowed: number[]): string[] => {
    if (!allowed.includes(res.statusCode))
      return [`${op.label}: answered ${res.statusCode} (expected one of ${allowed.join(', ')}): ${res.body.slice(0, 500)}`];
    if (!documentedStatuses(op).includes(res.statusCode)) return [`${op.label}: answered ${res.statusCode}, which the document does not list`];
    const content = responseOf(op, res.statusCode)?.content;
    if (!content) return res.body === '' ? [] : [`${op.label} ${res.statusCode}: a body the document does not declare`];
    const type = String(res.headers['content-type'] ?? '').split(';')[0];
    if (!(type in content)) return [`${op.label} ${res.statusCode}: content type ${type}, documented ${Object.keys(content).join(', ')}`];
    return type === 'application/json' ? validator.problems(op, res.statusCode, res.json()) : [];
  };

  it('is the document `npm run openapi` writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qr-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await promisify(execFile)('node', ['-r', '@swc-node/register', 'src/write-openapi.ts', file], {
        cwd: join(__dirname, '..'),
        env: { ...process.env, BASE_URL: 'http://api.test', REDIRECT_URL: 'http://qr.test', DATABASE_URL: '', REDIS_URL: '' },
      });
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(document);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  /**
   * A nested resource's id as a person finds it in Swagger UI: the first item its collection lists
   * (`…/{id}/deliveries/{delivery_id}` → `data[0].id` of `GET …/{id}/deliveries`), or that item's
   * field named like the parameter (`…/{id}/history/{version}/restore` → `data[0].version`).
   */
  const firstListed = async (path: string, parameter: string, url: string, apiKey: string): Promise<unknown> => {
    const collection = url.slice(0, url.indexOf(`/{${parameter}}`));
    const res = await t.request({ method: 'GET', url: collection, headers: { 'x-api-key': apiKey } });
    if (res.statusCode !== 200) throw new Error(`${path}: GET ${collection} answered ${res.statusCode}: ${res.body}`);
    const first = res.json<{ data?: Array<Record<string, unknown>> }>().data?.[0];
    return first?.[parameter] ?? first?.id;
  };

  it("runs every operation's examples in order against a fresh account, each answering a documented success", async () => {
    const { key } = await t.newAccount();
    // The first created resource of each collection (its first example), as a person would copy its id.
    const created = new Map<string, Record<string, unknown>>();
    const problems: string[] = [];
    let executed = 0;

    for (const op of runOrder(operationsOf(document))) {
      const examples = requestExamples(op);
      if (examples === 'missing') {
        problems.push(`${op.label}: its request body has no example`);
        continue;
      }
      let url = op.path;
      // The outer id first: a nested resource is found through its parent.
      for (const parameter of parametersOf(op, 'path').sort((a, b) => Number(b.name === 'id') - Number(a.name === 'id'))) {
        // A resource named by another field than its id (`/tags/{name}`): that field of its own collection's first example.
        const own = createdIn(created, collectionOf(op.path));
        const value =
          parameter.name === 'id'
            ? own?.id
            : (own?.[parameter.name] ??
              [...created.values()].find((body) => parameter.name in body)?.[parameter.name] ??
              (await firstListed(op.path, parameter.name, url, key)));
        if (typeof value !== 'string' && typeof value !== 'number') {
          problems.push(`${op.label}: no earlier example created a value for the path parameter ${parameter.name}`);
          url = '';
          break;
        }
        url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
      }
      if (!url) continue;
      const query = prefilledQuery(op);
      for (const example of examples ?? [{ name: 'no body', value: undefined }]) {
        const request: InjectOptions = { method: op.method.toUpperCase() as InjectOptions['method'], url, query, headers: credentialsFor(op, key) };
        if (example.value !== undefined) {
          request.payload = example.value as InjectOptions['payload'];
          if (requestMedia(op) !== 'application/json') request.headers = { ...request.headers, 'content-type': requestMedia(op) ?? '' };
        }
        const res = await t.request(request);
        executed++;
        const found = conformance(op, res, successStatuses(op));
        problems.push(...found.map((problem) => `${problem} [example ${example.name}]`));
        if (found.length === 0 && op.method === 'post' && !created.has(op.path) && String(res.headers['content-type']).includes('json')) {
          created.set(op.path, res.json());
        }
      }
    }

    expect(problems).toEqual([]);
    expect(executed).toBeGreaterThanOrEqual(operationsOf(document).length);
  });

  it('documents the 401 every secured operation answers without credentials, in the error schema', async () => {
    const problems: string[] = [];
    for (const op of operationsOf(document).filter((candidate) => securityOf(document, candidate).length > 0)) {
      const url = op.path.replace(/\{[^}]+\}/g, NO_SUCH_ID);
      const res = await t.request({ method: op.method.toUpperCase() as InjectOptions['method'], url, payload: requestExamples(op) ? {} : undefined });
      problems.push(...conformance(op, res, [401]));
    }
    expect(problems).toEqual([]);
  });

  it('documents the 404 every operation on an id answers for an id that is not yours, in the error schema', async () => {
    const { key } = await t.newAccount();
    const problems: string[] = [];
    for (const op of operationsOf(document).filter((candidate) => parametersOf(candidate, 'path').some((parameter) => parameter.name === 'id'))) {
      const examples = requestExamples(op);
      const media = requestMedia(op);
      const res = await t.request({
        method: op.method.toUpperCase() as InjectOptions['method'],
        url: op.path.replace(/\{[^}]+\}/g, NO_SUCH_ID),
        query: prefilledQuery(op),
        headers: { ...credentialsFor(op, key), ...(media && media !== 'application/json' ? { 'content-type': media } : {}) },
        payload: Array.isArray(examples) ? (examples[0].value as InjectOptions['payload']) : undefined,
      });
      problems.push(...conformance(op, res, [404]));
    }
    expect(problems).toEqual([]);
  });

  it('documents 400, 413 and 415 on every operation that reads a JSON body or a query, in the error schema', async () => {
    const { key } = await t.newAccount();
    const problems: string[] = [];
    for (const op of operationsOf(document)) {
      const method = op.method.toUpperCase() as InjectOptions['method'];
      // A path that exists: the id checks come after the body checks only for ids that parse.
      const url = op.path.replace(/\{[^}]+\}/g, NO_SUCH_ID);
      const headers = credentialsFor(op, key);
      if (requestMedia(op) === 'application/json' && requestExamples(op)) {
        const undeclared = await t.request({ method, url, headers, payload: { not_a_field: true } });
        problems.push(...conformance(op, undeclared, [400]));
        if (undeclared.statusCode === 400 && !JSON.stringify(undeclared.json().errors ?? []).includes('not_a_field')) {
          problems.push(`${op.label}: the 400 does not name the undeclared field: ${undeclared.body}`);
        }
        const asText = await t.request({ method, url, headers: { ...headers, 'content-type': 'text/plain' }, payload: '{}' });
        problems.push(...conformance(op, asText, [415]));
        const tooLarge = await t.request({
          method,
          url,
          headers: { ...headers, 'content-type': 'application/json' },
          payload: JSON.stringify({ x: 'x'.repeat(1024 * 1024) }),
        });
        problems.push(...conformance(op, tooLarge, [413]));
      }
      if (parametersOf(op, 'query').length > 0) {
        const res = await t.request({ method, url, headers, query: { not_a_parameter: '1' } });
        problems.push(...conformance(op, res, [400, 404]));
      }
    }
    expect(problems).toEqual([]);
  });

  it('answers a documented path called with a method it does not have 405, with Allow and the error shape', async () => {
    const { key } = await t.newAccount();
    const problems: string[] = [];
    const apiPaths = Object.entries(document.paths).filter(([candidate]) => candidate.startsWith('/api/'));
    // A concrete URL can match more than one documented path (`/qrcodes/bulk` is also `/qrcodes/{id}`).
    const documentedAt = (url: string): string[] =>
      apiPaths
        .filter(([path]) => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(url))
        .flatMap(([, item]) =>
          (['get', 'post', 'put', 'patch', 'delete'] as const).filter((method) => item[method]).map((method) => method.toUpperCase()),
        );
    for (const [path] of apiPaths) {
      const url = path.replace(/\{[^}]+\}/g, NO_SUCH_ID);
      const documented = documentedAt(url);
      const expectedAllow = [...new Set([...documented, ...(documented.includes('GET') ? ['HEAD'] : [])])].sort().join(', ');
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((candidate) => !documented.includes(candidate))) {
        const res = await t.request({ method: method as InjectOptions['method'], url, headers: { 'x-api-key': key, 'x-admin-token': ADMIN_TOKEN } });
        if (res.statusCode !== 405) problems.push(`${method} ${path}: answered ${res.statusCode}, not 405`);
        else if (res.headers.allow !== expectedAllow) problems.push(`${method} ${path}: Allow ${String(res.headers.allow)}, not ${expectedAllow}`);
        problems.push(...errorShapeProblems(res).map((problem) => `${method} ${path}: ${problem}`));
      }
    }
    expect(problems).toEqual([]);
    const unknown = await t.request({ method: 'POST', url: '/api/v1/no-such-collection', headers: { 'x-api-key': key } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers.allow).toBeUndefined();
    const withoutAdminToken = await t.startSibling({ ADMIN_TOKEN: undefined });
    const admin = await withoutAdminToken.request({ method: 'PATCH', url: '/api/v1/admin/api-keys', headers: { 'x-admin-token': ADMIN_TOKEN } });
    expect([admin.statusCode, admin.headers.allow]).toEqual([404, undefined]);
  });

  it('pre-fills no path id and no optional query parameter (Swagger UI would send them); says where an id comes from', () => {
    const prefilled: string[] = [];
    const vague: string[] = [];
    for (const op of operationsOf(document)) {
      for (const parameter of [...parametersOf(op, 'path'), ...parametersOf(op, 'query').filter((query) => !query.required)]) {
        const schemaExample = (parameter.schema as { example?: unknown } | undefined)?.example;
        if (parameter.example !== undefined || parameter.examples !== undefined || schemaExample !== undefined)
          prefilled.push(`${op.label} ${parameter.name}`);
      }
      for (const id of parametersOf(op, 'path').filter((parameter) => parameter.name === 'id'))
        if (!id.description?.includes('`id`')) vague.push(`${op.label}: ${id.description ?? '(no description)'}`);
    }
    expect(prefilled).toEqual([]);
    expect(vague).toEqual([]);
  });

  it('is no looser than the server: integer paging, closed bodies, no blank names, no pre-filled Idempotency-Key', async () => {
    const { key } = await t.newAccount();
    const operations = operationsOf(document);
    const list = operations.find((op) => op.operation.operationId === 'listQrCodes') as DocumentedOperation;
    expect(parametersOf(list, 'query').find((parameter) => parameter.name === 'page')?.schema).toMatchObject({ type: 'integer', maximum: 1_000_000 });
    expect(parametersOf(list, 'query').find((parameter) => parameter.name === 'limit')?.schema).toMatchObject({ type: 'integer', maximum: 100 });
    for (const page of ['1.5', '1000001']) {
      const res = await t.request({ method: 'GET', url: '/api/v1/qrcodes', query: { page }, headers: { 'x-api-key': key } });
      expect([page, res.statusCode]).toEqual([page, 400]);
    }

    const schemas = document.components?.schemas as Record<
      string,
      { additionalProperties?: unknown; properties?: Record<string, Record<string, unknown>> }
    >;
    for (const name of [
      'CreateQrCodeDto',
      'UpdateQrCodeDto',
      'StyleDto',
      'UrlContentDto',
      'PhoneContentDto',
      'CreateWebhookDto',
      'FolderBodyDto',
      'CreateApiKeyDto',
    ]) {
      expect([name, schemas[name].additionalProperties]).toEqual([name, false]);
    }
    expect(schemas.CreateWebhookDto.properties?.folder_id).toMatchObject({ type: 'string', format: 'uuid', nullable: true });
    expect(schemas.CreateWebhookDto.properties?.events).toMatchObject({ minItems: 1, uniqueItems: true });
    const duplicated = await t.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { 'x-api-key': key },
      payload: { url: 'https://example.com/hook', events: ['qrcode.scanned', 'qrcode.scanned'] },
    });
    expect(duplicated.statusCode).toBe(400);

    for (const [schema, url, headers, payload] of [
      ['CreateQrCodeDto', '/api/v1/qrcodes', { 'x-api-key': key }, { type: 'text', name: '  ', content: { text: 'x' } }],
      ['FolderBodyDto', '/api/v1/folders', { 'x-api-key': key }, { name: '  ' }],
      ['CreateApiKeyDto', '/api/v1/admin/api-keys', { 'x-admin-token': ADMIN_TOKEN }, { name: '  ' }],
    ] as const) {
      expect([schema, schemas[schema].properties?.name]).toEqual([schema, expect.objectContaining({ minLength: 1, pattern: '\\S' })]);
      const res = await t.request({ method: 'POST', url, headers, payload });
      expect([schema, res.statusCode, res.json().errors]).toEqual([schema, 400, [expect.objectContaining({ field: 'name' })]]);
    }

    // The content schemas overlap (a phone number alone is also an sms), so `type` chooses: one example per type.
    const create = operations.find((op) => op.operation.operationId === 'createQrCode') as DocumentedOperation;
    const examples = requestExamples(create) as Array<{ value: { type: string } }>;
    expect(new Set(examples.map((example) => example.value.type))).toEqual(
      new Set(['url', 'text', 'email', 'phone', 'sms', 'wifi', 'vcard', 'geo', 'event']),
    );
    const phoneWithMessage = await t.request({
      method: 'POST',
      url: '/api/v1/qrcodes',
      headers: { 'x-api-key': key },
      payload: { type: 'phone', content: { number: '+49 30 1234567', message: 'hi' } },
    });
    expect(phoneWithMessage.statusCode).toBe(400);

    const keyHeaders = operations.flatMap((op) =>
      (op.operation.parameters ?? [])
        .filter((parameter) => 'name' in parameter && parameter.name === 'Idempotency-Key')
        .map((parameter) => ({ op, parameter })),
    );
    expect(keyHeaders.map(({ op }) => op.operation.operationId).sort()).toEqual([
      'bulkCreateQrCodes',
      'createExport',
      'createImport',
      'createQrCode',
      'createWebhook',
    ]);
    for (const { op, parameter } of keyHeaders) {
      const { example, schema } = parameter as { example?: unknown; schema?: { example?: unknown; minLength?: number } };
      expect([op.label, example, schema?.example, schema?.minLength]).toEqual([op.label, undefined, undefined, 1]);
    }
    const emptyKey = await t.request({
      method: 'POST',
      url: '/api/v1/qrcodes',
      headers: { 'x-api-key': key, 'idempotency-key': '' },
      payload: { type: 'text', content: { text: 'x' } },
    });
    expect([emptyKey.statusCode, emptyKey.json().errors]).toEqual([400, [expect.objectContaining({ field: 'Idempotency-Key' })]]);
  });

  it('has an X-Admin-Token scheme of its own, required by the admin operations only', () => {
    expect(document.components?.securitySchemes).toEqual({
      'api-key': expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
      'admin-token': expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Admin-Token' }),
    });
    for (const op of operationsOf(document)) {
      const expected = op.path.startsWith('/api/v1/admin/') ? ['admin-token'] : op.path.startsWith('/api/v1/') ? ['api-key'] : [];
      expect([op.label, securityOf(document, op)]).toEqual([op.label, expected]);
    }
  });

  it('calls the origin the document was loaded from first, BASE_URL second (Swagger UI at 127.0.0.1 or localhost)', () => {
    expect(document.servers?.map((server) => server.url)).toEqual(['/', 'http://api.test']);
  });

  it('documents the redirect host under its own tag, on the same origin or REDIRECT_URL', () => {
    const redirect = document.paths['/r/{short_code}'];
    expect(redirect.servers?.map((server) => server.url)).toEqual(['/', 'http://qr.test']);
    expect(redirect.get?.tags).toEqual(['redirect']);
    expect(Object.keys(redirect.get?.responses ?? {})).toEqual(expect.arrayContaining(['200', '302', '404', '410']));
    expect(document.tags?.map((tag) => tag.name)).toContain('redirect');
  });

  it('types the update body exactly: folder_id and expires_at are nullable strings', () => {
    const update = document.components?.schemas?.UpdateQrCodeDto as { properties: Record<string, Record<string, unknown>> };
    expect(update.properties.folder_id).toMatchObject({ type: 'string', format: 'uuid', nullable: true });
    expect(update.properties.expires_at).toMatchObject({ type: 'string', format: 'date-time', nullable: true });
    expect(update.properties.status).toMatchObject({ type: 'string', enum: ['active', 'paused'] });
  });

  it('explains margin: a quiet zone of four modules by default, pixels when set', () => {
    const style = document.components?.schemas?.StyleDto as { properties: Record<string, { description?: string; default?: unknown }> };
    expect(style.properties.margin.default).toBeUndefined();
    expect(style.properties.margin.description).toMatch(/four modules/);
    expect(style.properties.margin.description).toMatch(/pixels/);
  });
});
