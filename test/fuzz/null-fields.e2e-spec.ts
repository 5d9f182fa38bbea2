import type { LightMyRequestResponse } from 'fastify';
import { auth, createFolder, createQr, expectFieldErrors, expectStatus, GENEROUS_RATE_LIMIT } from '../support/factories';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../support/test-app';

/**
 * `null` in every field of every JSON body, one request per field: where null means nothing it is
 * refused (400 naming the field; in a bulk item, that item fails) rather than read as "left out",
 * which would, say, make `"account_id": null` a key for a new account. Where the API gives null a
 * meaning ("none": a code's or a webhook's folder, a code's expiry), it is accepted.
 */

/** Every content field of every type, each set (vCard address parts included). */
const FULL_CONTENT: Record<string, Record<string, unknown>> = {
  url: { url: 'https://example.com/null' },
  text: { text: 'Hello' },
  email: { to: 'hello@example.com', subject: 'Order 12', body: 'Hi there' },
  phone: { number: '+49 30 1234567' },
  sms: { number: '+1 555 010 9999', message: 'JOIN' },
  wifi: { ssid: 'CafeGuest', password: 'hunter22', encryption: 'WPA', hidden: false },
  vcard: {
    first_name: 'Ada',
    last_name: 'Lovelace',
    organization: 'Engines Ltd',
    title: 'Mathematician',
    phone: '+44 20 7946 0000',
    mobile: '+44 7700 900000',
    email: 'ada@example.com',
    website: 'https://example.com',
    address: { street: 'Example Street 1', city: 'Berlin', region: 'Berlin', postcode: '10115', country: 'Germany' },
    note: 'Met at the fair',
  },
  geo: { latitude: 52.52, longitude: 13.4 },
  event: { title: 'Open day', start: '2030-06-01T18:00:00+02:00', end: '2030-06-01T21:00:00+02:00', location: 'Main Hall', description: 'Tours' },
};

const STYLE = {
  dotsOptions: { type: 'rounded', color: '#1a237e' },
  cornersSquareOptions: { type: 'extra-rounded', color: '#0d47a1' },
  cornersDotOptions: { type: 'dot', color: '#0d47a1' },
  backgroundOptions: { color: '#ffffff' },
  qrOptions: { errorCorrectionLevel: 'Q' },
  margin: 8,
  shape: 'square',
};

/** The dotted paths of every leaf and every object inside `value` (arrays are leaves). */
function fieldPaths(value: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = `${prefix}${key}`;
    const nested = inner && typeof inner === 'object' && !Array.isArray(inner) ? fieldPaths(inner as Record<string, unknown>, `${path}.`) : [];
    return [path, ...nested];
  });
}

/** A deep copy of `body` with the field at `path` set to null. */
function withNull(body: Record<string, unknown>, path: string): Record<string, unknown> {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let target: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[keys[keys.length - 1]] = null;
  return copy;
}

interface BodyRoute {
  method: 'POST' | 'PUT' | 'PATCH';
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** Fields where null means "none" and is accepted. */
  nullable?: string[];
  /** Fields not to try (null there is covered by another route's cases). */
  skip?: (path: string) => boolean;
}

describe('null in every body field (e2e)', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  let folderId: string;
  let staticCodeId: string;
  let dynamicCodeId: string;
  let webhookId: string;
  const future = () => new Date(Date.now() + 86_400_000).toISOString();

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key, accountId } = await t.newAccount());
    folderId = (await createFolder(t, key, 'Nulls')).id;
    staticCodeId = (await createQr(t, key)).id;
    dynamicCodeId = (await createQr(t, key, { is_dynamic: true })).id;
    const webhook = await t.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: auth(key),
      payload: { url: 'https://example.com/hook', events: ['qrcode.created'] },
    });
    expectStatus(webhook, 201);
    webhookId = webhook.json<{ id: string }>().id;
  });
  afterAll(() => t?.close());

  const send = (route: BodyRoute, payload: Record<string, unknown>): Promise<LightMyRequestResponse> =>
    t.request({ method: route.method, url: route.url, headers: route.headers, payload });

  function routes(): Record<string, BodyRoute> {
    const createBody = {
      type: 'url',
      content: FULL_CONTENT.url,
      name: 'N',
      is_dynamic: true,
      folder_id: folderId,
      style: STYLE,
      expires_at: future(),
    };
    return {
      'POST /api/v1/qrcodes': { method: 'POST', url: '/api/v1/qrcodes', headers: auth(key), body: createBody, nullable: ['folder_id', 'expires_at'] },
      'PUT /api/v1/qrcodes/:id': {
        method: 'PUT',
        url: `/api/v1/qrcodes/${dynamicCodeId}`,
        headers: auth(key),
        body: {
          type: 'url',
          content: FULL_CONTENT.url,
          name: 'N',
          is_dynamic: true,
          status: 'active',
          folder_id: folderId,
          style: STYLE,
          expires_at: future(),
        },
        nullable: ['folder_id', 'expires_at'],
      },
      'PUT /api/v1/qrcodes/:id (static)': {
        method: 'PUT',
        url: `/api/v1/qrcodes/${staticCodeId}`,
        headers: auth(key),
        body: { is_dynamic: true },
      },
      'POST /api/v1/styles/check': {
        method: 'POST',
        url: '/api/v1/styles/check',
        headers: auth(key),
        body: { style: STYLE, content_length: 20, type: 'static' },
      },
      'POST /api/v1/folders': { method: 'POST', url: '/api/v1/folders', headers: auth(key), body: { name: 'F' } },
      'PUT /api/v1/folders/:id': { method: 'PUT', url: `/api/v1/folders/${folderId}`, headers: auth(key), body: { name: 'Nulls' } },
      'POST /api/v1/admin/api-keys': {
        method: 'POST',
        url: '/api/v1/admin/api-keys',
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: { name: 'k', account_id: accountId },
      },
      'POST /api/v1/webhooks': {
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: auth(key),
        body: { url: 'https://example.com/hook', events: ['qrcode.created'], description: 'd', enabled: true, folder_id: folderId, qrcode_ids: [] },
        nullable: ['folder_id'],
      },
      'POST /api/v1/webhooks (codes)': {
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: auth(key),
        body: { url: 'https://example.com/hook', events: ['qrcode.created'], qrcode_ids: [staticCodeId] },
      },
      'PATCH /api/v1/webhooks/:id': {
        method: 'PATCH',
        url: `/api/v1/webhooks/${webhookId}`,
        headers: auth(key),
        body: { url: 'https://example.com/hook', events: ['qrcode.created'], description: 'd', enabled: true, folder_id: folderId, qrcode_ids: [] },
        nullable: ['folder_id'],
      },
    };
  }

  it('each route answers its whole body as sent (2xx), so a refusal below is the null', async () => {
    for (const [name, route] of Object.entries(routes())) {
      const res = await send(route, route.body);
      expect({ name, status: res.statusCode, body: res.statusCode < 300 ? '' : res.body }).toEqual({
        name,
        status: route.method === 'POST' && !name.includes('check') ? 201 : 200,
        body: '',
      });
    }
  });

  it.each([
    'POST /api/v1/qrcodes',
    'PUT /api/v1/qrcodes/:id',
    'PUT /api/v1/qrcodes/:id (static)',
    'POST /api/v1/styles/check',
    'POST /api/v1/folders',
    'PUT /api/v1/folders/:id',
    'POST /api/v1/admin/api-keys',
    'POST /api/v1/webhooks',
    'POST /api/v1/webhooks (codes)',
    'PATCH /api/v1/webhooks/:id',
  ])('%s: null refused in each field where it means nothing, accepted where it means none', async (name) => {
    const route = routes()[name];
    const wrong: string[] = [];
    for (const path of fieldPaths(route.body)) {
      const res = await send(route, withNull(route.body, path));
      if (route.nullable?.includes(path)) {
        if (res.statusCode >= 300) wrong.push(`${path}: null (none) refused with ${res.statusCode}: ${res.body.slice(0, 200)}`);
        continue;
      }
      // The style check answers a refused style with its verdict (200), a malformed request with 400.
      const refused = res.statusCode === 400 || (name === 'POST /api/v1/styles/check' && path.startsWith('style.') && res.statusCode === 200);
      const fields = refused ? res.json<{ errors?: Array<{ field: string }> }>().errors?.map((error) => error.field) : undefined;
      const top = path.startsWith('style.') ? path : path.split('.').slice(0, 2).join('.');
      if (!fields?.some((field) => field === path || field === top || field.startsWith(`${path}.`))) {
        wrong.push(`${path}: null answered ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each(Object.keys(FULL_CONTENT))('POST /api/v1/qrcodes: null refused in each %s content field, naming it', async (type) => {
    const route: BodyRoute = { method: 'POST', url: '/api/v1/qrcodes', headers: auth(key), body: { type, content: FULL_CONTENT[type] } };
    expectStatus(await send(route, route.body), 201);
    const wrong: string[] = [];
    for (const path of fieldPaths(route.body).filter((field) => field.startsWith('content.'))) {
      const res = await send(route, withNull(route.body, path));
      const fields = res.statusCode === 400 ? res.json<{ errors?: Array<{ field: string }> }>().errors?.map((error) => error.field) : undefined;
      if (!fields?.includes(path)) wrong.push(`${path}: null answered ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('POST /api/v1/qrcodes/bulk: null fails the item in each field where it means nothing, and the qrcodes array itself', async () => {
    expectFieldErrors(await t.request({ method: 'POST', url: '/api/v1/qrcodes/bulk', headers: auth(key), payload: { qrcodes: null } }), 'qrcodes');
    const item = { type: 'vcard', content: FULL_CONTENT.vcard, name: 'N', is_dynamic: false, style: STYLE };
    const wrong: string[] = [];
    for (const path of fieldPaths(item)) {
      const res = await t.request({ method: 'POST', url: '/api/v1/qrcodes/bulk', headers: auth(key), payload: { qrcodes: [withNull(item, path)] } });
      const failed = res.statusCode === 201 ? res.json<{ errors: Array<{ index: number; errors: Array<{ field: string }> }> }>().errors : [];
      const top = path.startsWith('style.') ? path : path.split('.').slice(0, 2).join('.');
      const named = failed.find((entry) => entry.index === 0)?.errors.some((error) => error.field === path || error.field === top);
      if (!named) wrong.push(`${path}: null answered ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('POST /api/v1/admin/api-keys with "account_id": null makes no account', async () => {
    const before = await t.prisma.account.count();
    expectFieldErrors(
      await t.request({
        method: 'POST',
        url: '/api/v1/admin/api-keys',
        headers: { 'x-admin-token': ADMIN_TOKEN },
        payload: { name: 'k', account_id: null },
      }),
      'account_id',
    );
    expect(await t.prisma.account.count()).toBe(before);
  });
});
