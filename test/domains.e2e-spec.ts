import type { LightMyRequestResponse } from 'fastify';
import { DomainRecheck } from '../src/domains/domain-recheck.service';
import { decodeSvg } from './support/decode-svg';
import { TestDnsServer } from './support/dns-server';
import { describeWhen, HAS_REDIS } from './support/environment';
import { errorShapeProblems } from './support/error-shape';
import {
  auth,
  createQr,
  eventually,
  expectErrorBody,
  expectFieldErrors,
  expectStatus,
  GENEROUS_RATE_LIMIT,
  TestClock,
  UUID,
} from './support/factories';
import { type Sibling, startTestApp, type TestApp } from './support/test-app';

const DAY_MS = 24 * 60 * 60 * 1000;
const BROWSER = {
  'user-agent':
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
};

interface DomainBody {
  id: string;
  hostname: string;
  status: string;
  verification: { type: string; name: string; value: string };
  root_redirect_url: string | null;
  not_found_url: string | null;
  verified_at: string | null;
}

describe('branded domains (e2e, with a DNS server on a local port)', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let key: string;
  let accountId: string;
  let otherKey: string;
  const clock = new TestClock();
  let serial = 0;
  /** A fresh hostname per test: tests share the database. */
  const hostname = (label = 'qr') => `${label}${++serial}.brand-${process.pid}.example`;

  beforeAll(async () => {
    dns = await new TestDnsServer().start();
    t = await startTestApp(
      {
        ...GENEROUS_RATE_LIMIT,
        DNS_RESOLVERS: dns.address,
        DNS_TIMEOUT_MS: '400',
        TLS_ASK_ENABLED: '1',
        WEBHOOK_ALLOW_HTTP: '1',
        WEBHOOK_ALLOW_PRIVATE: '1',
        ROLE: 'api',
      },
      { clock },
    );
    ({ key, accountId } = await t.newAccount());
    ({ key: otherKey } = await t.newAccount());
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, apiKey = key) =>
    t.request({ method, url, headers: auth(apiKey), ...(payload ? { payload } : {}) });
  const onHost = (host: string, url: string, through: { request: TestApp['request'] } = t): Promise<LightMyRequestResponse> =>
    through.request({ method: 'GET', url, headers: { host, ...BROWSER } });

  async function addDomain(name = hostname(), apiKey = key): Promise<DomainBody> {
    const res = await api('POST', '/api/v1/domains', { hostname: name }, apiKey);
    expectStatus(res, 201);
    return res.json();
  }

  /** Adds a domain, publishes its TXT record and verifies it. */
  async function verifiedDomain(name = hostname(), apiKey = key): Promise<DomainBody> {
    const domain = await addDomain(name, apiKey);
    dns.set(domain.verification.name, { txt: [domain.verification.value] });
    const res = await api('POST', `/api/v1/domains/${domain.id}/verify`, undefined, apiKey);
    expectStatus(res, 200);
    return res.json();
  }

  describe('the resource', () => {
    it('adds a domain: 201, pending, with the TXT record to create; normalises the hostname', async () => {
      const name = hostname('MiXeD');
      const res = await api('POST', '/api/v1/domains', { hostname: `${name.toUpperCase()}.` });
      expectStatus(res, 201);
      const body = res.json();
      expect(body).toEqual({
        id: expect.stringMatching(UUID),
        hostname: name.toLowerCase(),
        status: 'pending',
        verification: { type: 'TXT', name: `_qr-verify.${name.toLowerCase()}`, value: expect.stringMatching(/^qr-verify=[0-9A-Za-z]{32}$/) },
        root_redirect_url: null,
        not_found_url: null,
        app_links: null,
        created_at: expect.any(String),
        verified_at: null,
        request_id: res.headers['x-request-id'],
      });
      expect((await api('GET', `/api/v1/domains/${body.id}`)).json()).toMatchObject({ id: body.id, hostname: body.hostname });
      expect((await api('GET', '/api/v1/domains')).json().data.map((d: DomainBody) => d.id)).toContain(body.id);
    });

    it('stores IDN hostnames in punycode', async () => {
      const body = await addDomain(`bücher${++serial}.example`);
      expect(body.hostname).toBe(`xn--bcher${serial}-4ya.example`.replace(/xn--bcher\d+-4ya/, body.hostname.split('.')[0]));
      expect(body.hostname).toMatch(/^xn--/);
    });

    it.each([
      ['an IP address', '192.0.2.1'],
      ['a port', 'qr.example.com:8443'],
      ['a scheme', 'https://qr.example.com'],
      ['a single label', 'intranet'],
      ['an underscore', 'qr_code.example.com'],
      ["the service's own host", 'qr.test'],
      ['an over-long label', `${'a'.repeat(64)}.example.com`],
    ])('refuses %s with 400 naming hostname', async (_case, name) => {
      expectFieldErrors(await api('POST', '/api/v1/domains', { hostname: name }), 'hostname');
    });

    it("answers another account's domain as missing (404), for every verb", async () => {
      const domain = await addDomain();
      for (const [method, path] of [
        ['GET', ''],
        ['PUT', ''],
        ['DELETE', ''],
        ['POST', '/verify'],
      ] as const) {
        expectErrorBody(await api(method, `/api/v1/domains/${domain.id}${path}`, method === 'PUT' ? {} : undefined, otherKey), 404);
      }
    });

    it('refuses unsafe redirect URLs naming the field, and stores normalised ones', async () => {
      const domain = await addDomain();
      expectFieldErrors(await api('PUT', `/api/v1/domains/${domain.id}`, { root_redirect_url: 'javascript:alert(1)' }), 'root_redirect_url');
      expectFieldErrors(await api('PUT', `/api/v1/domains/${domain.id}`, { not_found_url: `https://${domain.hostname}/r/x` }), 'not_found_url');
      const res = await api('PUT', `/api/v1/domains/${domain.id}`, { root_redirect_url: 'HTTPS://WWW.Brand.example', not_found_url: null });
      expectStatus(res, 200);
      expect(res.json()).toMatchObject({ root_redirect_url: 'https://www.brand.example/', not_found_url: null });
    });

    it('records writes in the audit log', async () => {
      const domain = await addDomain();
      const entries = await t.prisma.auditLogEntry.findMany({ where: { accountId, resourceId: domain.id } });
      expect(entries.map((entry) => entry.action)).toEqual(['domain.create']);
    });
  });

  describe('verification by DNS', () => {
    it('400 naming verification when the TXT record is missing', async () => {
      const domain = await addDomain();
      const errors = expectFieldErrors(await api('POST', `/api/v1/domains/${domain.id}/verify`), 'verification');
      expect(errors[0].message).toMatch(/no TXT record found at _qr-verify\./);
    });

    it('400 naming the values found when the record holds others', async () => {
      const domain = await addDomain();
      dns.set(domain.verification.name, { txt: ['google-site-verification=abc', 'qr-verify=wrong'] });
      const errors = expectFieldErrors(await api('POST', `/api/v1/domains/${domain.id}/verify`), 'verification');
      expect(errors[0].message).toContain('"google-site-verification=abc", "qr-verify=wrong"');
      expect((await api('GET', `/api/v1/domains/${domain.id}`)).json().status).toBe('pending');
    });

    it('400 saying the lookup failed when the resolver does not answer in time', async () => {
      const domain = await addDomain();
      dns.silent.add(domain.verification.name);
      const errors = expectFieldErrors(await api('POST', `/api/v1/domains/${domain.id}/verify`), 'verification');
      expect(errors[0].message).toMatch(/could not be looked up/);
    });

    it('verifies with the right record, among several values and split in chunks', async () => {
      const domain = await addDomain();
      const token = domain.verification.value;
      dns.set(domain.verification.name, { txt: ['v=spf1 -all', [token.slice(0, 10), token.slice(10)]] });
      const res = await api('POST', `/api/v1/domains/${domain.id}/verify`);
      expectStatus(res, 200);
      expect(res.json()).toMatchObject({ status: 'verified', verified_at: expect.any(String) });
    });

    it('verifies through a CNAME chain (the record delegated to another zone)', async () => {
      const domain = await addDomain();
      dns.set(domain.verification.name, { cname: `hop1.${domain.hostname}` });
      dns.set(`hop1.${domain.hostname}`, { cname: 'verify.dns-provider.example' });
      dns.set('verify.dns-provider.example', { txt: [domain.verification.value] });
      expect((await api('POST', `/api/v1/domains/${domain.id}/verify`)).json()).toMatchObject({ status: 'verified' });
    });

    it('a hostname verified by one account: 409 naming hostname for a second account (add or verify)', async () => {
      const name = hostname();
      const pendingElsewhere = await addDomain(name, otherKey);
      await verifiedDomain(name);
      const added = expectErrorBody(await api('POST', '/api/v1/domains', { hostname: name }, otherKey), 409);
      expect(added.errors).toEqual([{ field: 'hostname', message: 'hostname is verified by another account' }]);
      dns.set(pendingElsewhere.verification.name, { txt: [pendingElsewhere.verification.value] });
      expect(expectErrorBody(await api('POST', `/api/v1/domains/${pendingElsewhere.id}/verify`, undefined, otherKey), 409).errors[0].field).toBe(
        'hostname',
      );
    });

    it('re-checks daily: missing for 7 days turns failing (still served, domain.failing sent); back, verified again (domain.verified)', async () => {
      const hook = await api('POST', '/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['domain.verified', 'domain.failing'] });
      expectStatus(hook, 201);
      const domain = await verifiedDomain();
      const code = await createQr(t, key, {
        is_dynamic: true,
        domain_id: domain.id,
        short_code: 'recheck',
        content: { url: 'https://example.com/kept' },
      });
      const recheck = t.app.get(DomainRecheck);
      const statusNow = async () => (await api('GET', `/api/v1/domains/${domain.id}`)).json().status;

      dns.set(domain.verification.name, {});
      clock.advance(DAY_MS + 1000);
      expect(await recheck.sweep()).toBeGreaterThanOrEqual(1);
      expect(await statusNow()).toBe('verified');
      clock.advance(7 * DAY_MS + 1000);
      await recheck.sweep();
      expect(await statusNow()).toBe('failing');
      // Failing keeps serving.
      expect((await onHost(domain.hostname, `/r/${code.short_code}`)).headers.location).toBe('https://example.com/kept');

      dns.set(domain.verification.name, { txt: [domain.verification.value] });
      clock.advance(DAY_MS + 1000);
      await recheck.sweep();
      expect(await statusNow()).toBe('verified');
      const events = await t.prisma.webhookEvent.findMany({ where: { accountId, type: { startsWith: 'domain.' } }, orderBy: { occurredAt: 'asc' } });
      // (Other domains of the account may have turned failing in the same sweeps: the 409 test replaced one's record.)
      expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['domain.failing', 'domain.verified']));
      const failing = await t.prisma.auditLogEntry.findMany({
        where: { accountId, resourceId: domain.id, action: { in: ['domain.failing', 'domain.verify'] } },
      });
      expect(failing.map((entry) => entry.action).sort()).toEqual(['domain.failing', 'domain.verify', 'domain.verify']);
    });
  });

  describe('codes on domains', () => {
    it('a code on a domain: dynamic_url on the domain, the image encodes it; changing the domain bumps the render version', async () => {
      const domain = await verifiedDomain();
      const code = await createQr(t, key, { is_dynamic: true, domain_id: domain.id, short_code: 'Spring-26' });
      expect(code).toMatchObject({ short_code: 'Spring-26', dynamic_url: `https://${domain.hostname}/r/Spring-26`, domain_id: domain.id });
      const image = await api('GET', `/api/v1/qrcodes/${code.id}/image`);
      expect(decodeSvg(image.body)).toBe(`https://${domain.hostname}/r/Spring-26`);
      const before = await t.prisma.qrCode.findUniqueOrThrow({ where: { id: code.id } });
      const moved = await api('PUT', `/api/v1/qrcodes/${code.id}`, { domain_id: null });
      expectStatus(moved, 200);
      expect(moved.json().qrcode.dynamic_url).toBe(`http://qr.test/r/Spring-26`);
      expect((await t.prisma.qrCode.findUniqueOrThrow({ where: { id: code.id } })).renderVersion).toBe(before.renderVersion + 1);
      expect(decodeSvg((await api('GET', `/api/v1/qrcodes/${code.id}/image`)).body)).toBe('http://qr.test/r/Spring-26');
    });

    it('refuses a pending domain, another account’s, or a static code on one (400 naming domain_id)', async () => {
      const pending = await addDomain();
      const others = await verifiedDomain(hostname(), otherKey);
      expectFieldErrors(
        await api('POST', '/api/v1/qrcodes', { type: 'url', content: { url: 'https://e.example' }, is_dynamic: true, domain_id: pending.id }),
        'domain_id',
      );
      expectFieldErrors(
        await api('POST', '/api/v1/qrcodes', { type: 'url', content: { url: 'https://e.example' }, is_dynamic: true, domain_id: others.id }),
        'domain_id',
      );
      const mine = await verifiedDomain();
      expectFieldErrors(
        await api('POST', '/api/v1/qrcodes', { type: 'url', content: { url: 'https://e.example' }, domain_id: mine.id }),
        'domain_id',
      );
    });

    it.each([
      ['too short', 'ab'],
      ['a reserved word', 'API'],
      ['a bad character', 'spring!'],
      ['too long', 'x'.repeat(65)],
    ])('refuses a vanity short code that is %s (400 naming short_code)', async (_case, shortCode) => {
      expectFieldErrors(
        await api('POST', '/api/v1/qrcodes', { type: 'url', content: { url: 'https://e.example' }, is_dynamic: true, short_code: shortCode }),
        'short_code',
      );
    });

    it('a vanity code taken on its host: 409 naming short_code; the same code on another domain is fine', async () => {
      const a = await verifiedDomain();
      const b = await verifiedDomain();
      const url = (path: string) => ({ type: 'url', content: { url: `https://example.com/${path}` }, is_dynamic: true });
      await createQr(t, key, { ...url('a'), domain_id: a.id, short_code: 'menu' });
      const taken = expectErrorBody(await api('POST', '/api/v1/qrcodes', { ...url('again'), domain_id: a.id, short_code: 'menu' }), 409);
      expect(taken.errors).toEqual([{ field: 'short_code', message: 'short_code "menu" is taken on this host' }]);
      await createQr(t, key, { ...url('b'), domain_id: b.id, short_code: 'menu' });
      await createQr(t, otherKey, { ...url('default'), short_code: `menu${serial}` });

      // Resolved by Host: each domain serves its own code; none serves the other's; the default host serves neither.
      expect((await onHost(a.hostname, '/r/menu')).headers.location).toBe('https://example.com/a');
      expect((await onHost(`${b.hostname.toUpperCase()}:443`, '/r/menu')).headers.location).toBe('https://example.com/b');
      expect((await onHost('qr.test', '/r/menu')).statusCode).toBe(404);
      expect((await onHost(a.hostname, `/r/menu${serial}`)).statusCode).toBe(404);
      expect((await onHost('qr.test', `/r/menu${serial}`)).headers.location).toBe('https://example.com/default');

      // Bulk: the taken one and a repeat within the batch fail as items; the rest are created.
      const bulk = await api('POST', '/api/v1/qrcodes/bulk', {
        qrcodes: [
          { ...url('x'), domain_id: a.id, short_code: 'menu' },
          { ...url('y'), domain_id: a.id, short_code: 'drinks' },
          { ...url('z'), domain_id: a.id, short_code: 'drinks' },
        ],
      });
      expectStatus(bulk, 201);
      expect(bulk.json().errors.map((e: { index: number; errors: Array<{ field: string }> }) => [e.index, e.errors[0].field])).toEqual([
        [0, 'short_code'],
        [2, 'short_code'],
      ]);
    });

    it('short_code on update only with the upgrade to dynamic', async () => {
      const stat = await createQr(t, key, { content: { url: 'https://example.com/static' } });
      const up = await api('PUT', `/api/v1/qrcodes/${stat.id}`, { is_dynamic: true, short_code: `up-${serial}` });
      expectStatus(up, 200);
      expect(up.json().qrcode.short_code).toBe(`up-${serial}`);
      expectFieldErrors(await api('PUT', `/api/v1/qrcodes/${stat.id}`, { short_code: 'changed' }), 'short_code');
    });
  });

  describe('the redirect host on a domain', () => {
    it('root → root_redirect_url (or a neutral page); unknown code → not_found_url (or the 404 page); neither is a scan', async () => {
      const domain = await verifiedDomain();
      const root = await onHost(domain.hostname, '/');
      expect(root.statusCode).toBe(200);
      expect(root.headers['content-type']).toMatch(/text\/html/);
      expect((await onHost(domain.hostname, '/r/nothing-here')).statusCode).toBe(404);
      await api('PUT', `/api/v1/domains/${domain.id}`, {
        root_redirect_url: 'https://www.brand.example/',
        not_found_url: 'https://www.brand.example/help',
      });
      const redirected = await onHost(domain.hostname, '/');
      expect([redirected.statusCode, redirected.headers.location]).toEqual([302, 'https://www.brand.example/']);
      const unknown = await onHost(domain.hostname, '/r/nothing-here');
      expect([unknown.statusCode, unknown.headers.location]).toEqual([302, 'https://www.brand.example/help']);
    });

    it.each(['/api/v1/qrcodes', '/docs', '/docs-json', '/metrics', '/health/live', '/health/ready', '/internal/tls/ask?domain=x.example'])(
      'never fronts the API: %s answers 404 on a domain',
      async (path) => {
        const domain = await verifiedDomain();
        const res = await t.request({ method: 'GET', url: path, headers: { host: domain.hostname, ...auth(key) } });
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toMatch(/text\/html/);
      },
    );

    it('a pending domain serves nothing, but is not the API either', async () => {
      const domain = await addDomain();
      expect((await onHost(domain.hostname, '/')).statusCode).toBe(404);
      expect((await onHost(domain.hostname, '/api/v1/qrcodes')).statusCode).toBe(404);
    });

    it('believes X-Forwarded-Host only with TRUST_PROXY', async () => {
      const domain = await verifiedDomain();
      await createQr(t, key, { is_dynamic: true, domain_id: domain.id, short_code: 'fwd', content: { url: 'https://example.com/fwd' } });
      const untrusted = await t.request({ url: '/r/fwd', headers: { host: 'qr.test', 'x-forwarded-host': domain.hostname, ...BROWSER } });
      expect(untrusted.statusCode).toBe(404);
      const proxied = await t.startSibling({ TRUST_PROXY: '1' });
      const trusted = await proxied.request({ url: '/r/fwd', headers: { host: 'app:3000', 'x-forwarded-host': domain.hostname, ...BROWSER } });
      expect(trusted.headers.location).toBe('https://example.com/fwd');
      // Each embedded sibling holds a database in WebAssembly memory: a third beside it could not start.
      await proxied.close();
    });
  });

  describe('deletion', () => {
    it('409 while codes use the domain; ?force=true moves them to the default host (new printed URL, render version bumped)', async () => {
      const domain = await verifiedDomain();
      const code = await createQr(t, key, { is_dynamic: true, domain_id: domain.id, short_code: `gone${serial}` });
      const clash = await createQr(t, otherKey, { is_dynamic: true, short_code: `clash${serial}` });
      const clashing = await createQr(t, key, { is_dynamic: true, domain_id: domain.id, short_code: clash.short_code });
      expectErrorBody(await api('DELETE', `/api/v1/domains/${domain.id}`), 409);
      expectFieldErrors(await api('DELETE', `/api/v1/domains/${domain.id}?force=yes`), 'force');
      expectStatus(await api('DELETE', `/api/v1/domains/${domain.id}?force=true`), 200);
      expectErrorBody(await api('GET', `/api/v1/domains/${domain.id}`), 404);
      const moved = (await api('GET', `/api/v1/qrcodes/${code.id}`)).json();
      // One short code was taken on the default host: every moved code got a new one.
      expect(moved).toMatchObject({ dynamic_url: `http://qr.test/r/${moved.short_code}` });
      expect(moved).not.toHaveProperty('domain_id');
      const other = (await api('GET', `/api/v1/qrcodes/${clashing.id}`)).json();
      expect(other.short_code).not.toBe(clash.short_code);
      expect((await onHost('qr.test', `/r/${other.short_code}`)).statusCode).toBe(302);
      expect(await t.prisma.domain.count({ where: { id: domain.id } })).toBe(0);
    });

    it('without codes: 200 at once', async () => {
      const domain = await verifiedDomain();
      expectStatus(await api('DELETE', `/api/v1/domains/${domain.id}`), 200);
    });
  });

  describe('TLS on demand (ask)', () => {
    it("200 for a verified domain and the service's own hosts; 404 for pending, unknown, invalid; not on a domain", async () => {
      const verified = await verifiedDomain();
      const pending = await addDomain();
      const ask = (domain: string, host = 'localhost') =>
        t.request({ url: `/internal/tls/ask?domain=${encodeURIComponent(domain)}`, headers: { host } });
      expect((await ask(verified.hostname)).statusCode).toBe(200);
      expect((await ask(verified.hostname.toUpperCase())).statusCode).toBe(200);
      // REDIRECT_URL's and BASE_URL's hosts: the default host's printed codes get a certificate however Caddy names its sites.
      for (const own of ['qr.test', 'api.test', 'QR.test.']) expect((await ask(own)).statusCode).toBe(200);
      for (const name of [pending.hostname, 'unknown.example', '127.0.0.1', '']) {
        const res = await ask(name);
        expect(res.statusCode).toBe(404);
        expect(errorShapeProblems(res)).toEqual([]);
      }
      expect((await ask(verified.hostname, verified.hostname)).headers['content-type']).toMatch(/text\/html/);
    });

    it('404 when TLS_ASK_ENABLED is off', async () => {
      const off = await t.startSibling({ TLS_ASK_ENABLED: '0' });
      const domain = await verifiedDomain();
      expect((await off.request({ url: `/internal/tls/ask?domain=${domain.hostname}` })).statusCode).toBe(404);
      await off.close();
    });
  });

  describeWhen(HAS_REDIS)('two instances', () => {
    let other: Sibling;
    beforeAll(async () => {
      other = await t.startSibling();
    });

    it("a domain's new URLs, re-verification and deletion reach the other instance's cache", async () => {
      const domain = await verifiedDomain();
      expect((await onHost(domain.hostname, '/', other)).statusCode).toBe(200);
      await api('PUT', `/api/v1/domains/${domain.id}`, { root_redirect_url: 'https://www.brand.example/new' });
      expect(await eventually(async () => (await onHost(domain.hostname, '/', other)).headers.location, 'https://www.brand.example/new', 3000)).toBe(
        'https://www.brand.example/new',
      );
      const code = await createQr(t, key, {
        is_dynamic: true,
        domain_id: domain.id,
        short_code: 'multi',
        content: { url: 'https://example.com/multi' },
      });
      expect((await onHost(domain.hostname, '/r/multi', other)).headers.location).toBe('https://example.com/multi');
      await api('PUT', `/api/v1/qrcodes/${code.id}`, { content: { url: 'https://example.com/multi2' } });
      expect(
        await eventually(async () => (await onHost(domain.hostname, '/r/multi', other)).headers.location, 'https://example.com/multi2', 3000),
      ).toBe('https://example.com/multi2');
      await api('DELETE', `/api/v1/domains/${domain.id}?force=true`);
      // The host is no domain any more: its root is the API's (a JSON 404), no longer the domain's redirect.
      expect(await eventually(async () => (await onHost(domain.hostname, '/', other)).headers.location, undefined, 3000)).toBeUndefined();
    });
  });
});
