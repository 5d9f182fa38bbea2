import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { compressPath } from '../src/gs1/syntax/compression';
import { auth, expectStatus, GENEROUS_RATE_LIMIT } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const GTIN = '09506000134352';
const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const link = (link_type: string, href: string, extra: Record<string, unknown> = {}) => ({ link_type, href, title: `${link_type} ${href}`, ...extra });
const PIP_EN = link('gs1:pip', 'https://brand.example/en', { hreflang: ['en'], type: 'text/html', default: true });
const PIP_FR = link('gs1:pip', 'https://brand.example/fr', { hreflang: ['fr'], type: 'text/html' });
const PIP_PDF = link('gs1:pip', 'https://brand.example/en.pdf', { hreflang: ['en'], type: 'application/pdf' });
const RECALL = link('gs1:recallStatus', 'https://brand.example/recall?lot={10}&serial={21}');

/** The resolver (GS1-Conformant Resolver Standard 1.2) on the default host under /gs1 and at the root of a verified domain. */
describe('GS1 resolver (e2e)', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  let otherKey: string;
  let otherAccountId: string;
  const hostname = `id-${process.pid}.brand.example`;
  const otherHostname = `id-other-${process.pid}.brand.example`;
  let domainId: string;

  const get = (url: string, headers: Record<string, string> = {}, host = 'qr.test', method: 'GET' | 'HEAD' | 'OPTIONS' = 'GET') =>
    t.request({ method, url, headers: { host, 'user-agent': BROWSER, ...headers } });
  const onDomain = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' | 'OPTIONS' = 'GET') =>
    get(url, headers, hostname, method);
  const createItem = async (payload: Record<string, unknown>, apiKey = key) => {
    const res = await t.request({ method: 'POST', url: '/api/v1/gs1/items', headers: auth(apiKey), payload });
    expectStatus(res, 201);
    return res.json<{ id: string; uri: string }>();
  };
  const verifiedDomain = async (owner: string, name: string) => {
    const now = new Date();
    return t.prisma.domain.create({
      data: {
        id: randomUUID(),
        accountId: owner,
        hostname: name,
        status: 'verified',
        verificationToken: 'token',
        verifiedAt: now,
        createdAt: now,
        updatedAt: now,
      },
    });
  };
  const expectCors = (res: LightMyRequestResponse) => {
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
  };

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key, accountId } = await t.newAccount());
    ({ key: otherKey, accountId: otherAccountId } = await t.newAccount());
    domainId = (await verifiedDomain(accountId, hostname)).id;
    await verifiedDomain(otherAccountId, otherHostname);
    await createItem({ path: `/01/${GTIN}`, name: 'Risotto rice', links: [PIP_EN, PIP_FR, PIP_PDF, RECALL] });
    await createItem({ path: `/01/${GTIN}/10/LOT1`, links: [link('gs1:safetyInfo', 'https://brand.example/lot1-safety', { default: true })] });
    await createItem({ path: `/01/${GTIN}`, domain_id: domainId, links: [link('gs1:pip', 'https://brand.example/on-domain', { default: true })] });
  });
  afterAll(() => t?.close());

  it('no link type: 307 to the default link, with CORS and a Link to the linkset', async () => {
    const res = await get(`/gs1/01/${GTIN}`);
    expect(res.statusCode).toBe(307);
    expect(res.headers.location).toBe(PIP_EN.href);
    expectCors(res);
    expect(res.headers.link).toContain(`<http://qr.test/gs1/01/${GTIN}?linkType=linkset>; rel="linkset"; type="application/linkset+json"`);
  });

  it.each([
    ['Accept-Language picks the French link of the default type', { 'accept-language': 'fr-FR,fr;q=0.9' }, PIP_FR.href],
    ['Accept picks the PDF', { accept: 'application/pdf' }, PIP_PDF.href],
    ['a language no link has: the default', { 'accept-language': 'de' }, PIP_EN.href],
  ])('%s', async (_case, headers, location) => {
    const res = await get(`/gs1/01/${GTIN}`, headers);
    expect(res.statusCode).toBe(307);
    expect(res.headers.location).toBe(location);
  });

  it('a GTIN-13 resolves like its 14-digit form; a trailing slash is tolerated', async () => {
    expect((await get(`/gs1/01/${GTIN.slice(1)}`)).headers.location).toBe(PIP_EN.href);
    expect((await get(`/gs1/01/${GTIN}/`)).headers.location).toBe(PIP_EN.href);
  });

  it('linkType present: that link (templates filled, query passed on); absent: 404', async () => {
    const res = await get(`/gs1/01/${GTIN}/10/LOT%2F7/21/S1?linkType=gs1:recallStatus&17=271231&foo=bar`);
    expect(res.statusCode).toBe(307);
    expect(res.headers.location).toBe('https://brand.example/recall?lot=LOT%2F7&serial=S1&17=271231&foo=bar');
    expect((await get(`/gs1/01/${GTIN}?linkType=https://gs1.org/voc/recallStatus`)).statusCode).toBe(307);
    const missing = await get(`/gs1/01/${GTIN}?linkType=gs1:nutritionalInfo`);
    expect(missing.statusCode).toBe(404);
    expectCors(missing);
    expect((await get(`/gs1/01/${GTIN}?linkType=gs1:nosuchlt`)).statusCode).toBe(404);
  });

  it('300 with the links when the request cannot choose among several of the requested type', async () => {
    const res = await get(`/gs1/01/${GTIN}?linkType=gs1:pip`, { accept: 'text/html' });
    expect(res.statusCode).toBe(300);
    expect(res.json()).toEqual({
      anchor: `http://qr.test/gs1/01/${GTIN}`,
      link_type: 'gs1:pip',
      links: [
        { href: PIP_EN.href, title: PIP_EN.title, type: 'text/html', hreflang: ['en'] },
        { href: PIP_FR.href, title: PIP_FR.title, type: 'text/html', hreflang: ['fr'] },
      ],
    });
    expect((await get(`/gs1/01/${GTIN}?linkType=gs1:pip`, { accept: 'text/html', 'accept-language': 'fr' })).headers.location).toBe(PIP_FR.href);
  });

  it('a lot with an item of its own answers its links and inherits the rest; a lot or serial without one resolves through its GTIN', async () => {
    expect((await get(`/gs1/01/${GTIN}/10/LOT1`)).headers.location).toBe('https://brand.example/lot1-safety');
    expect((await get(`/gs1/01/${GTIN}/10/LOT1?linkType=gs1:pip`, { 'accept-language': 'fr' })).headers.location).toBe(PIP_FR.href);
    expect((await get(`/gs1/01/${GTIN}/10/OTHER/21/X`)).headers.location).toBe(PIP_EN.href);
    expect((await get(`/gs1/01/${GTIN}/21/ONLY-SERIAL`)).headers.location).toBe(PIP_EN.href);
  });

  it.each([
    ['17 in the path', `/gs1/01/${GTIN}/17/271231`],
    ['a wrong check digit', '/gs1/01/09506000134353'],
    ['an odd segment', `/gs1/01/${GTIN}/foo`],
    ['an impossible date attribute', `/gs1/01/${GTIN}?17=271332`],
    ['qualifiers out of order', `/gs1/01/${GTIN}/21/S/10/L`],
    ['bad percent-encoding', `/gs1/01/${GTIN}/10/%E0%A4%A`],
  ])('400 for %s (never 200 for an error)', async (_case, url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expectCors(res);
    expect(res.json()).toMatchObject({ statusCode: 400, message: expect.any(String) });
  });

  it('an unknown item: 404', async () => {
    const res = await get('/gs1/01/00000000000017');
    expect(res.statusCode).toBe(404);
    expectCors(res);
  });

  it.each([
    ['linkType=linkset', '?linkType=linkset', {}],
    ['linkType=all', '?linkType=all', {}],
    ['Accept: application/linkset+json', '', { accept: 'application/linkset+json' }],
  ])(
    'the linkset by %s: one entry per level from the requested one up, anchored at its URI, with the JSON-LD context',
    async (_case, query, headers) => {
      const res = await get(`/gs1/01/${GTIN}/10/LOT1${query}`, headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/linkset+json');
      expect(res.headers.link).toContain('rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"');
      const { linkset } = res.json<{ linkset: Array<Record<string, unknown>> }>();
      expect(linkset.map((entry) => entry.anchor)).toEqual([`http://qr.test/gs1/01/${GTIN}/10/LOT1`, `http://qr.test/gs1/01/${GTIN}`]);
      expect(linkset[1]).toMatchObject({
        itemDescription: 'Risotto rice',
        'https://gs1.org/voc/defaultLink': [{ href: PIP_EN.href, title: PIP_EN.title }],
        'https://gs1.org/voc/recallStatus': [{ href: 'https://brand.example/recall?lot=LOT1&serial=', title: RECALL.title }],
      });
    },
  );

  it('a compressed URI resolves like its uncompressed form, which it names in Link rel="owl:sameAs"', async () => {
    const compressed = new URL(compressPath('http://qr.test/gs1', `/01/${GTIN}/10/LOT1?17=271231`));
    const res = await get(compressed.pathname);
    expect(res.statusCode).toBe(307);
    expect(res.headers.location).toBe('https://brand.example/lot1-safety?17=271231');
    expect(res.headers.link).toContain(`<http://qr.test/gs1/01/${GTIN}/10/LOT1?17=271231>; rel="owl:sameAs"`);
    expect((await get('/gs1/zzzzzzzzzzzz')).statusCode).toBe(400);
  });

  it('HEAD answers like GET without a body; OPTIONS answers the CORS preflight', async () => {
    const head = await get(`/gs1/01/${GTIN}`, {}, 'qr.test', 'HEAD');
    expect(head.statusCode).toBe(307);
    expect(head.headers.location).toBe(PIP_EN.href);
    expect(head.body).toBe('');
    const options = await get(`/gs1/01/${GTIN}`, { origin: 'https://app.example', 'access-control-request-method': 'GET' }, 'qr.test', 'OPTIONS');
    expect(options.statusCode).toBe(204);
    expectCors(options);
    expect(options.headers.link).toContain('rel="linkset"');
  });

  it('/.well-known/gs1resolver on the default host and on a domain, with its resolverRoot', async () => {
    const onDefault = await get('/.well-known/gs1resolver');
    expect(onDefault.statusCode).toBe(200);
    expectCors(onDefault);
    expect(onDefault.json()).toMatchObject({ resolverRoot: 'http://qr.test/gs1', supportedPrimaryKeys: expect.arrayContaining(['01', '00', '414']) });
    expect((await onDomain('/.well-known/gs1resolver')).json()).toMatchObject({ resolverRoot: `https://${hostname}` });
  });

  it('on a verified domain the resolver answers at the root, from that domain’s items only', async () => {
    const res = await onDomain(`/01/${GTIN}`);
    expect(res.statusCode).toBe(307);
    expect(res.headers.location).toBe('https://brand.example/on-domain');
    expect(res.headers.link).toContain(`<https://${hostname}/01/${GTIN}?linkType=linkset>`);
    // The default host's items are not the domain's, and another account's domain has none of them.
    expect((await onDomain(`/01/${GTIN}/10/LOT1`)).headers.location).toBe('https://brand.example/on-domain');
    expect((await get(`/01/${GTIN}`, {}, otherHostname)).statusCode).toBe(404);
    // The domain's other paths stay the redirect host's.
    expect((await onDomain('/r/nothing')).statusCode).toBe(404);
  });

  it('an item of another account on the default host resolves for everyone, but is managed only by its owner', async () => {
    const gtin = '09506000134376';
    // Unknown first (the 404 is remembered), then created: answered at once.
    expect((await get(`/gs1/01/${gtin}`)).statusCode).toBe(404);
    const created = await createItem({ path: `/01/${gtin}`, links: [link('gs1:pip', 'https://other.example/p', { default: true })] }, otherKey);
    expect((await get(`/gs1/01/${gtin}`)).headers.location).toBe('https://other.example/p');
    expect((await t.request({ method: 'DELETE', url: `/api/v1/gs1/items/${created.id}`, headers: auth(key) })).statusCode).toBe(404);
    // An update is answered at once (the resolver's memory of the item is dropped).
    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/gs1/items/${created.id}`,
      headers: auth(otherKey),
      payload: { links: [link('gs1:pip', 'https://other.example/new', { default: true })] },
    });
    expectStatus(put, 200);
    expect((await get(`/gs1/01/${gtin}`)).headers.location).toBe('https://other.example/new');
    expectStatus(await t.request({ method: 'DELETE', url: `/api/v1/gs1/items/${created.id}`, headers: auth(otherKey) }), 200);
    expect((await get(`/gs1/01/${gtin}`)).statusCode).toBe(404);
  });
});
