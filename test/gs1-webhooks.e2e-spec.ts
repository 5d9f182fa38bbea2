import { auth, expectStatus, GENEROUS_RATE_LIMIT } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const GTIN = '09506000134352';
const link = (link_type: string, href: string, extra: Record<string, unknown> = {}) => ({ link_type, href, title: `${link_type} ${href}`, ...extra });

/** gs1.item.created/updated/deleted through the webhook outbox, in the change's transaction. */
describe('GS1 item webhooks (e2e)', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.request({ method, url, headers: auth(key), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE: '1' });
    ({ key, accountId } = await t.newAccount());
  });
  afterAll(() => t?.close());

  it('creating, updating and deleting an item sends gs1.item.* with the item to subscribed endpoints; code events are not sent', async () => {
    const all = await api('POST', '/api/v1/webhooks', {
      url: 'http://127.0.0.1:9/gs1',
      events: ['gs1.item.created', 'gs1.item.updated', 'gs1.item.deleted'],
    });
    expectStatus(all, 201);
    const deletesOnly = await api('POST', '/api/v1/webhooks', { url: 'http://127.0.0.1:9/deleted', events: ['gs1.item.deleted'] });
    expectStatus(deletesOnly, 201);
    const codesOnly = await api('POST', '/api/v1/webhooks', { url: 'http://127.0.0.1:9/codes', events: ['qrcode.created'] });
    expectStatus(codesOnly, 201);

    const created = await api('POST', '/api/v1/gs1/items', {
      path: `/01/${GTIN}`,
      name: 'Rice',
      links: [link('gs1:pip', 'https://b.example/p', { default: true })],
    });
    expectStatus(created, 201);
    const id = created.json<{ id: string }>().id;
    expectStatus(await api('PUT', `/api/v1/gs1/items/${id}`, { name: 'Risotto rice' }), 200);
    expectStatus(await api('DELETE', `/api/v1/gs1/items/${id}`), 200);

    const events = await t.prisma.webhookEvent.findMany({ where: { accountId, type: { startsWith: 'gs1.' } }, orderBy: { occurredAt: 'asc' } });
    expect(events.map((event) => event.type)).toEqual(['gs1.item.created', 'gs1.item.updated', 'gs1.item.deleted']);
    const bodies = events.map(
      (event) => JSON.parse(event.body) as { type: string; data: { gs1_item: Record<string, unknown>; changed_fields?: string[] } },
    );
    expect(bodies[0].data.gs1_item).toMatchObject({ id, path: `/01/${GTIN}`, name: 'Rice', uri: `http://qr.test/gs1/01/${GTIN}` });
    expect(bodies[1].data).toMatchObject({ gs1_item: { id, name: 'Risotto rice' }, changed_fields: ['name'] });
    expect(bodies[2].data.gs1_item).toMatchObject({ id, name: 'Risotto rice' });

    const deliveries = await t.prisma.webhookDelivery.findMany({ where: { accountId, eventType: { startsWith: 'gs1.' } } });
    const byEndpoint = (endpointId: string) =>
      deliveries
        .filter((delivery) => delivery.endpointId === endpointId)
        .map((d) => d.eventType)
        .sort();
    expect(byEndpoint(all.json<{ id: string }>().id)).toEqual(['gs1.item.created', 'gs1.item.deleted', 'gs1.item.updated']);
    expect(byEndpoint(deletesOnly.json<{ id: string }>().id)).toEqual(['gs1.item.deleted']);
    expect(byEndpoint(codesOnly.json<{ id: string }>().id)).toEqual([]);
  });

  it('an unknown gs1 event name is refused naming events', async () => {
    const res = await api('POST', '/api/v1/webhooks', { url: 'http://127.0.0.1:9/x', events: ['gs1.item.scanned'] });
    expectStatus(res, 400);
    expect(res.json<{ errors: Array<{ field: string }> }>().errors[0].field).toMatch(/^events/);
  });
});
