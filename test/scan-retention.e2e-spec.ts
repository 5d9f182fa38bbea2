import { auth, createQr, expectFieldErrors, expectStatus, getQr, updateQr } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * A dynamic code's own scan retention through the API (docs/scans-and-privacy.md#retention):
 * `scan_retention_days` set on create and update, cleared with null, shown on get, list and update
 * answers, refused out of range or on a static code, in the OpenAPI document with an example.
 */
describe('scan_retention_days (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ key } = await t.newAccount());
  });
  afterAll(async () => {
    await t?.close();
  });

  const dynamic = (fields: Record<string, unknown> = {}) =>
    createQr(t, key, { content: { url: 'https://example.com/kept' }, is_dynamic: true, ...fields });

  it('is set on create, shown on get and list, changed and cleared on update, and stored', async () => {
    const code = await dynamic({ scan_retention_days: 90 });
    expect((await getQr(t, key, code.id)).json()).toMatchObject({ scan_retention_days: 90 });
    const list = (await t.request({ method: 'GET', url: '/api/v1/qrcodes?limit=100', headers: auth(key) })).json();
    expect(list.data.find((item: { id: string }) => item.id === code.id)).toMatchObject({ scan_retention_days: 90 });

    const shortened = await updateQr(t, key, code.id, { scan_retention_days: 30 });
    expectStatus(shortened, 200);
    expect(shortened.json().qrcode).toMatchObject({ scan_retention_days: 30 });
    const renamed = await updateQr(t, key, code.id, { name: 'Renamed' });
    expect(renamed.json().qrcode).toMatchObject({ name: 'Renamed', scan_retention_days: 30 });
    expect((await t.prisma.qrCode.findUniqueOrThrow({ where: { id: code.id } })).scanRetentionDays).toBe(30);

    const cleared = await updateQr(t, key, code.id, { scan_retention_days: null });
    expect(cleared.json().qrcode).toMatchObject({ scan_retention_days: null });
    expect((await t.prisma.qrCode.findUniqueOrThrow({ where: { id: code.id } })).scanRetentionDays).toBeNull();
    expect((await getQr(t, key, (await dynamic()).id)).json()).toMatchObject({ scan_retention_days: null });
  });

  it.each([0, 3651, 1.5, -7, '90', true, { days: 90 }])('refuses %p (400 naming scan_retention_days)', async (value) => {
    const create = await t.request({
      method: 'POST',
      url: '/api/v1/qrcodes',
      headers: auth(key),
      payload: { type: 'url', content: { url: 'https://example.com/x' }, is_dynamic: true, scan_retention_days: value },
    });
    expectFieldErrors(create, 'scan_retention_days');
    const code = await dynamic({ scan_retention_days: 10 });
    expectFieldErrors(await updateQr(t, key, code.id, { scan_retention_days: value }), 'scan_retention_days');
    expect((await getQr(t, key, code.id)).json()).toMatchObject({ scan_retention_days: 10 });
  });

  it('applies to dynamic codes only: a static code is refused it (null passes), and shows none', async () => {
    const refused = await t.request({
      method: 'POST',
      url: '/api/v1/qrcodes',
      headers: auth(key),
      payload: { type: 'url', content: { url: 'https://example.com/static' }, scan_retention_days: 30 },
    });
    expectFieldErrors(refused, 'scan_retention_days');
    expect(refused.json().errors[0].message).toMatch(/dynamic codes only/);
    const code = await createQr(t, key, { content: { url: 'https://example.com/static' }, scan_retention_days: null });
    expectFieldErrors(await updateQr(t, key, code.id, { scan_retention_days: 30 }), 'scan_retention_days');
    expect((await getQr(t, key, code.id)).json()).not.toHaveProperty('scan_retention_days');
    // An upgrade to dynamic may set it in the same request.
    const upgraded = await updateQr(t, key, code.id, { is_dynamic: true, scan_retention_days: 30 });
    expectStatus(upgraded, 200);
    expect(upgraded.json().qrcode).toMatchObject({ is_dynamic: true, scan_retention_days: 30 });
  });

  it('is in the OpenAPI document, on the requests and the representation, with an example', async () => {
    const doc = (await t.request({ method: 'GET', url: '/docs-json' })).json();
    const schemas = doc.components.schemas as Record<string, { properties?: Record<string, Record<string, unknown>> }>;
    const having = Object.entries(schemas).filter(([, schema]) => schema.properties?.scan_retention_days);
    expect(having.map(([name]) => name)).toEqual(expect.arrayContaining(['CreateQrCodeDto', 'UpdateQrCodeDto']));
    for (const [, schema] of having) expect(schema.properties!.scan_retention_days).toMatchObject({ nullable: true, example: expect.any(Number) });
    expect(schemas.CreateQrCodeDto.properties!.scan_retention_days).toMatchObject({ minimum: 1, maximum: 3650 });
    expect(having.length).toBeGreaterThan(2);
  });
});
