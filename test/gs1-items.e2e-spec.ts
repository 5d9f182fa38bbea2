import { randomUUID } from 'node:crypto';
import { auth, expectErrorBody, expectFieldErrors, expectStatus, GENEROUS_RATE_LIMIT, ISO_UTC_MS, NO_SUCH_ID, UUID } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const GTIN = '09506000134352';
const PIP = {
  link_type: 'gs1:pip',
  href: 'https://brand.example/rice',
  title: 'Product information',
  hreflang: ['en'],
  type: 'text/html',
  default: true,
};

describe('GS1 items (e2e)', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  let otherKey: string;
  let otherAccountId: string;

  beforeAll(async () => {
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, LOG_LEVEL: process.env.GS1_LOG ?? 'silent' }, { logDestination: process.stderr });
    ({ key, accountId } = await t.newAccount());
    ({ key: otherKey, accountId: otherAccountId } = await t.newAccount());
  });
  afterAll(() => t?.close());

  const items = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path = '', payload?: object, apiKey = key) =>
    t.request({ method, url: `/api/v1/gs1/items${path}`, headers: auth(apiKey), ...(payload ? { payload } : {}) });
  let serial = 0;
  /** A GTIN of its own per test (the default host's paths are shared by the whole database). */
  const freshGtin = () => {
    const body = `0950600${String(++serial).padStart(5, '0')}${process.pid % 10}`;
    let sum = 0;
    for (let i = body.length - 1, w = 3; i >= 0; i--, w = 4 - w) sum += Number(body[i]) * w;
    return `${body}${(10 - (sum % 10)) % 10}`;
  };
  const verifiedDomain = async (owner: string, hostname = `gs1-${randomUUID().slice(0, 8)}.brand.example`) => {
    const now = new Date();
    const domain = await t.prisma.domain.create({
      data: {
        id: randomUUID(),
        accountId: owner,
        hostname,
        status: 'verified',
        verificationToken: 'token',
        verifiedAt: now,
        createdAt: now,
        updatedAt: now,
      },
    });
    return domain;
  };

  it('creates an item: the path normalised (GTIN-13 to 14 digits), its URI under /gs1 on the default host, its links', async () => {
    const res = await items('POST', '', { path: `/01/${GTIN.slice(1)}/10/LOT42/`, name: 'Risotto rice', links: [PIP] });
    expectStatus(res, 201);
    expect(res.json()).toEqual({
      id: expect.stringMatching(UUID),
      path: `/01/${GTIN}/10/LOT42`,
      uri: `http://qr.test/gs1/01/${GTIN}/10/LOT42`,
      hri: `(01) ${GTIN} (10) LOT42`,
      domain_id: null,
      name: 'Risotto rice',
      links: [{ ...PIP, context: [] }],
      scans: 0,
      created_at: expect.stringMatching(ISO_UTC_MS),
      updated_at: expect.stringMatching(ISO_UTC_MS),
      request_id: res.headers['x-request-id'],
    });
    const row = await t.prisma.gs1Item.findUniqueOrThrow({ where: { id: res.json().id } });
    expect(row).toMatchObject({ accountId, primaryAi: '01', primaryValue: GTIN });
    const audit = await t.prisma.auditLogEntry.findFirst({ where: { accountId, action: 'gs1_item.create' } });
    expect(audit?.resourceId).toBe(res.json().id);
  });

  it('keeps href templates and normalises link types given by URI', async () => {
    const res = await items('POST', '', {
      path: `/01/${freshGtin()}`,
      links: [PIP, { link_type: 'https://gs1.org/voc/recallStatus', href: 'https://brand.example/recall?lot={10}&serial={21}', title: 'Recall' }],
    });
    expectStatus(res, 201);
    expect(res.json().links[1]).toMatchObject({
      link_type: 'gs1:recallStatus',
      href: 'https://brand.example/recall?lot={10}&serial={21}',
      default: false,
    });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a wrong check digit', { path: '/01/09506000134353' }, 'path'],
    ['17 (a data attribute) in the path', { path: `/01/${GTIN}/17/271231` }, 'path'],
    ['qualifiers out of order', { path: `/01/${GTIN}/21/S/10/L` }, 'path'],
    ['an unknown primary key', { path: '/99/123' }, 'path'],
    ['no links', { links: [] }, 'links'],
    ['no default', { links: [{ ...PIP, default: false }] }, 'links'],
    ['two defaults', { links: [PIP, { ...PIP, hreflang: ['fr'] }] }, 'links'],
    ['an unknown link type', { links: [{ ...PIP, link_type: 'gs1:nosuch' }] }, 'links[0].link_type'],
    ['gs1:defaultLink as a type', { links: [{ ...PIP, link_type: 'gs1:defaultLink' }] }, 'links[0].link_type'],
    ['a javascript: target', { links: [{ ...PIP, href: 'javascript:alert(1)' }] }, 'links[0].href'],
    ['a placeholder that is no AI', { links: [{ ...PIP, href: 'https://b.example/?x={9999}' }] }, 'links[0].href'],
    ['a target on the service itself', { links: [{ ...PIP, href: 'http://qr.test/r/abc' }] }, 'links[0].href'],
    ['no title', { links: [{ ...PIP, title: '  ' }] }, 'links[0].title'],
    ['a bad hreflang', { links: [{ ...PIP, hreflang: ['english'] }] }, 'links[0].hreflang'],
    ['a bad media type', { links: [{ ...PIP, type: 'html' }] }, 'links[0].type'],
    ['an unknown field', { links: [{ ...PIP, weight: 1 }] }, 'links[0].weight'],
    ['a domain that is not yours', { domain_id: NO_SUCH_ID }, 'domain_id'],
  ])('400 naming the field for %s, writing nothing', async (_case, change, field) => {
    const before = await t.prisma.gs1Item.count();
    expectFieldErrors(await items('POST', '', { path: `/01/${freshGtin()}`, links: [PIP], ...change }), field);
    expect(await t.prisma.gs1Item.count()).toBe(before);
  });

  it('409 when another account holds the path on the default host; a branded domain has its own namespace', async () => {
    const path = `/01/${freshGtin()}`;
    expectStatus(await items('POST', '', { path, links: [PIP] }), 201);
    const taken = expectErrorBody(await items('POST', '', { path, links: [PIP] }, otherKey), 409);
    expect(taken.errors).toEqual([{ field: 'path', message: expect.stringMatching(/already/) }]);
    const domain = await verifiedDomain(otherAccountId);
    const onDomain = await items('POST', '', { path, domain_id: domain.id, links: [PIP] }, otherKey);
    expectStatus(onDomain, 201);
    expect(onDomain.json()).toMatchObject({ domain_id: domain.id, uri: `https://${domain.hostname}${path}` });
    expectStatus(await items('POST', '', { path, domain_id: domain.id, links: [PIP] }, otherKey), 409);
    // Another account cannot place items on that domain.
    expectFieldErrors(await items('POST', '', { path, domain_id: domain.id, links: [PIP] }), 'domain_id');
  });

  it('gets, lists (by key), updates and deletes; another account sees none of it', async () => {
    const gtin = freshGtin();
    const created = (await items('POST', '', { path: `/01/${gtin}`, name: 'Before', links: [PIP] })).json();
    expectStatus(await items('GET', `/${created.id}`, undefined, otherKey), 404);
    expectStatus(await items('PUT', `/${created.id}`, { name: 'x' }, otherKey), 404);
    expectStatus(await items('DELETE', `/${created.id}`, undefined, otherKey), 404);
    const got = await items('GET', `/${created.id}`);
    expectStatus(got, 200);
    expect(got.json()).toMatchObject({ id: created.id, name: 'Before', request_id: expect.any(String) });
    const listed = await items('GET', `?key=${gtin.slice(1)}`);
    expectStatus(listed, 200);
    expect(listed.json()).toMatchObject({ data: [{ id: created.id }], pagination: { page: 1, limit: 20, total: 1, total_pages: 1 } });
    expect((await items('GET', `?key=${gtin}`, undefined, otherKey)).json().data).toEqual([]);
    const fr = { link_type: 'gs1:pip', href: 'https://brand.example/fr', title: 'Produit', hreflang: ['fr'] };
    const updated = await items('PUT', `/${created.id}`, { name: 'After', links: [PIP, fr] });
    expectStatus(updated, 200);
    expect(updated.json()).toMatchObject({ name: 'After', links: [PIP, { ...fr, type: null, context: [], default: false }] });
    expectFieldErrors(await items('PUT', `/${created.id}`, { links: [fr] }), 'links');
    expectStatus(await items('DELETE', `/${created.id}`), 200);
    expectStatus(await items('GET', `/${created.id}`), 404);
  });

  it('400 for a non-UUID id and out-of-range pages', async () => {
    expectFieldErrors(await items('GET', '/nope'), 'id');
    expectFieldErrors(await items('GET', '?limit=101'), 'limit');
  });
});
