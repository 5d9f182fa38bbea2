import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app';
import {
  auth,
  createFolder,
  expectErrorBody,
  expectFieldErrors,
  expectStatus,
  GENEROUS_RATE_LIMIT,
  ISO_UTC_MS,
  NO_SUCH_ID,
  UUID,
} from './support/factories';

describe('brand kits (e2e)', () => {
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

  const kits = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path = '', payload?: object, apiKey = key) =>
    t.request({ method, url: `/api/v1/brand-kits${path}`, headers: auth(apiKey), ...(payload ? { payload } : {}) });
  const NAVY = { dotsOptions: { type: 'rounded', color: '#1a237e' } };

  it('creates, reads, changes and deletes a kit; only a change of its look raises its version', async () => {
    const created = await kits('POST', '', { name: 'Acme', style: NAVY, frame: { type: 'banner-bottom', text: 'SCAN ME' }, default: true });
    expectStatus(created, 201);
    const kit = created.json();
    expect(kit).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Acme',
      style: NAVY,
      frame: { type: 'banner-bottom', text: 'SCAN ME' },
      logo: null,
      enforced: false,
      default: true,
      domain_ids: [],
      version: 1,
      codes: 0,
      created_at: expect.stringMatching(ISO_UTC_MS),
      updated_at: expect.stringMatching(ISO_UTC_MS),
      request_id: created.headers['x-request-id'],
    });
    expect((await kits('PATCH', `/${kit.id}`, { name: 'Acme brand' })).json()).toMatchObject({ name: 'Acme brand', version: 1 });
    expect((await kits('PATCH', `/${kit.id}`, { style: { dotsOptions: { color: '#b71c1c' } } })).json()).toMatchObject({ version: 2 });
    const replaced = (await kits('PUT', `/${kit.id}`, { name: 'Plain' })).json();
    expect(replaced).toMatchObject({ name: 'Plain', style: {}, frame: null, default: false, version: 3 });
    expect((await kits('GET')).json().data.map((listed: { id: string }) => listed.id)).toEqual([kit.id]);
    expectErrorBody(await kits('GET', `/${kit.id}`, undefined, otherKey), 404);
    expectStatus(await kits('DELETE', `/${kit.id}`), 200);
    expectErrorBody(await kits('GET', `/${kit.id}`), 404);
    const actions = await t.prisma.auditLogEntry.findMany({ where: { accountId, resourceType: 'brand_kit' }, orderBy: { seq: 'asc' } });
    expect(actions.map((entry) => entry.action)).toEqual([
      'brand_kit.create',
      'brand_kit.update',
      'brand_kit.update',
      'brand_kit.update',
      'brand_kit.delete',
    ]);
  });

  it('keeps one default kit per account', async () => {
    const first = (await kits('POST', '', { name: 'One', default: true })).json();
    const second = (await kits('POST', '', { name: 'Two', default: true })).json();
    expect((await kits('GET', `/${first.id}`)).json().default).toBe(false);
    expect((await kits('GET', `/${second.id}`)).json().default).toBe(true);
  });

  it.each([
    ['a kit that does not scan', { name: 'Pale', style: { dotsOptions: { color: '#f4f4f4' } } }, 'style'],
    ['a frame of no known type', { name: 'Odd', frame: { type: 'zigzag' } }, 'frame.type'],
    ['a logo that is no data: URI', { name: 'Logo', logo: 'https://logo.example/a.png' }, 'logo'],
    ['a logo inside the style', { name: 'Twice', style: { image: 'data:image/png;base64,AA==' } }, 'style.image'],
    ['a domain that is not yours', { name: 'Domain', domain_ids: [NO_SUCH_ID] }, 'domain_ids'],
    ['a blank name', { name: '  ' }, 'name'],
  ])('refuses %s, naming the field', async (_, body, field) => {
    const errors = expectFieldErrors(await kits('POST', '', body));
    expect(errors.some((error) => error.field.startsWith(field))).toBe(true);
  });

  it('lets a folder-restricted key read kits but not change them', async () => {
    const folder = await createFolder(t, key, 'Stores');
    const restricted = await t.request({
      method: 'POST',
      url: '/api/v1/admin/api-keys',
      headers: { 'x-admin-token': ADMIN_TOKEN },
      payload: { name: 'store key', account_id: accountId, folder_ids: [folder.id] },
    });
    const restrictedKey = restricted.json<{ key: string }>().key;
    expectStatus(await kits('GET', '', undefined, restrictedKey), 200);
    expectErrorBody(await kits('POST', '', { name: 'Mine' }, restrictedKey), 403);
  });
});
