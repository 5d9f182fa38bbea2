import type { LightMyRequestResponse } from 'fastify';
import { errorShapeProblems, namedFields } from './support/error-shape';
import { auth, createQr, expectStatus, GENEROUS_RATE_LIMIT, updateQr } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Redirect targets from the hostile end of the URL grammar. Each is either refused (400 naming
 * content.url) or stored in its WHATWG serialisation (punycode host, percent-encoded path, query
 * and fragment), and then redirected to with an ASCII Location that parses back to the same URL.
 * Create, bulk create and update apply the same rule. Loop aliases are checked against redirect
 * hosts with an explicit port (as deployed behind a port), with a name, and on the default port.
 */

const IP_HOST = 'http://127.0.0.1:4101';
const NAMED_HOST = 'http://localhost:4102';
const DEFAULT_PORT_HOST = 'https://qr.example.com';
type RedirectHost = typeof IP_HOST | typeof NAMED_HOST | typeof DEFAULT_PORT_HOST;

/** `store`: must be stored normalised; `refuse`: must be refused; `either`: one or the other, but never anything else. */
type Outcome = 'store' | 'refuse' | 'either';
interface Row {
  label: string;
  target: string;
  outcome: Outcome;
  /** The redirect host the app is configured with (REDIRECT_URL); IP_HOST unless given. */
  host?: RedirectHost;
  /** For documentation and as a check of the table: the normalised form a `store` row must take. */
  normalised?: string;
}

const row = (outcome: Outcome, label: string, target: string, more: Partial<Row> = {}): Row => ({ label, target, outcome, ...more });

const TARGETS: Row[] = [
  // Internationalised host names: punycode, as the WHATWG parser writes them.
  row('store', 'IDN: German umlaut host', 'https://bücher.example/', { normalised: 'https://xn--bcher-kva.example/' }),
  row('either', 'IDN: Cyrillic homograph of apple.com', 'https://аррӏе.com/', { normalised: 'https://xn--80ak6aa92e.com/' }),
  row('store', 'IDN: Japanese host and path', 'https://例え.jp/パス', { normalised: 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9' }),
  row('store', 'IDN: upper-case accented host', 'https://ÉXAMPLE.com/', { normalised: 'https://xn--xample-9ua.com/' }),
  row('store', 'IDN: already punycode', 'https://xn--bcher-kva.example/'),
  row('store', 'IDN: host, path, query and fragment', 'https://münchen.de/straße?q=größe#ä'),
  row('store', 'IDN: sharp s (non-transitional)', 'https://faß.de/', { normalised: 'https://xn--fa-hia.de/' }),
  row('either', 'IDN: emoji host', 'https://😀.example/'),
  row('either', 'IDN: enclosed letter mapped to ASCII', 'https://ⓔxample.com/'),
  row('refuse', 'IDN: invalid punycode label', 'https://xn--zz/'),
  row('refuse', 'IDN: fullwidth solidus in the host', 'https://example.com／evil.com/'),
  row('store', 'host with a trailing dot', 'https://example.com./'),
  row('store', 'upper-case host, default port', 'HTTPS://EXAMPLE.COM:443/Path', { normalised: 'https://example.com/Path' }),
  // Emoji and other astral characters in path, query and fragment.
  row('store', 'emoji path', 'https://example.com/😀', { normalised: 'https://example.com/%F0%9F%98%80' }),
  row('store', 'emoji query', 'https://example.com/?q=😀'),
  row('store', 'emoji fragment', 'https://example.com/#😀'),
  row('store', 'emoji everywhere', 'https://example.com/a😀b/c?d=😀#😀'),
  // Control and invisible characters.
  row('refuse', 'NUL in the path', 'https://example.com/\u0000'),
  row('refuse', 'NUL before the scheme', '\u0000https://example.com/'),
  row('refuse', 'tab in the host', 'https://exa\tmple.com/'),
  row('refuse', 'line feed in the path', 'https://example.com/a\nb'),
  row('refuse', 'CR LF (header injection)', 'https://example.com/\r\nSet-Cookie: a=b'),
  row('refuse', 'tab in the scheme (java\\tscript:)', 'java\tscript:alert(1)'),
  row('refuse', 'unpaired high surrogate', 'https://example.com/\ud800'),
  row('refuse', 'unpaired low surrogate', 'https://example.com/a\udc00b'),
  row('either', 'DEL in the path', 'https://example.com/\u007f'),
  row('either', 'C1 control NEL in the path', 'https://example.com/\u0085'),
  row('either', 'U+2028 line separator in the path', 'https://example.com/a\u2028b'),
  row('either', 'right-to-left override in the path', 'https://example.com/\u202egnp.exe'),
  row('either', 'byte order mark in the path', 'https://example.com/\ufeff'),
  row('either', 'zero-width space in the path', 'https://example.com/\u200b'),
  row('either', 'zero-width space in the host', 'https://exa\u200bmple.com/'),
  row('either', 'soft hyphen in the host', 'https://a\u00adb.com/'),
  row('either', 'no-break space in the path', 'https://example.com/\u00a0'),
  // Latin-1.
  row('store', 'Latin-1 path', 'https://example.com/café', { normalised: 'https://example.com/caf%C3%A9' }),
  row('store', 'Latin-1 query', 'https://example.com/?q=é&r=ü', { normalised: 'https://example.com/?q=%C3%A9&r=%C3%BC' }),
  row('store', 'Latin-1 host', 'https://café.example/'),
  row('store', 'y with diaeresis (0xFF)', 'https://example.com/ÿ'),
  row('store', 'a Latin-1 byte already percent-encoded', 'https://example.com/%E9'),
  // User information tricks.
  row('refuse', 'user name', 'https://user@example.com/'),
  row('refuse', 'user name and password', 'https://user:pass@example.com/'),
  row('refuse', 'trusted name as user name', 'https://example.com@evil.example/'),
  row('refuse', 'trusted name as user name, empty password', 'https://example.com:@evil.example'),
  row('refuse', 'encoded @ in the user name', 'https://user%40x@example.com/'),
  row('refuse', 'encoded @ in the host', 'https://example.com%40evil.example/'),
  row('either', 'empty user information', 'https://:@example.com/'),
  row('either', 'empty user name', 'http://@example.com/'),
  row('either', 'backslash before @ (path, not user name)', 'https://evil.example\\@example.com/'),
  // Loop aliases of the redirect host http://127.0.0.1:4101.
  row('refuse', 'loop: the configured origin', `${IP_HOST}/r/abcdefgh`),
  row('refuse', 'loop: the configured origin without a path', IP_HOST),
  row('refuse', 'loop: localhost', 'http://localhost:4101/r/abcdefgh'),
  row('refuse', 'loop: LOCALHOST', 'http://LOCALHOST:4101/'),
  row('refuse', 'loop: localhost with a trailing dot', 'http://localhost.:4101/'),
  row('refuse', 'loop: percent-encoded localhost', 'http://%6c%6fcalhost:4101/'),
  row('refuse', 'loop: 127.1', 'http://127.1:4101/'),
  row('refuse', 'loop: decimal 2130706433', 'http://2130706433:4101/'),
  row('refuse', 'loop: hexadecimal 0x7f000001', 'http://0x7f000001:4101/'),
  row('refuse', 'loop: octal 0177.0.0.1', 'http://0177.0.0.1:4101/'),
  row('refuse', 'loop: mixed 0x7f.0.0.1', 'http://0x7f.0.0.1:4101/'),
  row('refuse', 'loop: 127.0.0.2', 'http://127.0.0.2:4101/'),
  row('refuse', 'loop: 127.255.255.254', 'http://127.255.255.254:4101/'),
  row('refuse', 'loop: [::1]', 'http://[::1]:4101/'),
  row('refuse', 'loop: [0:0:0:0:0:0:0:1]', 'http://[0:0:0:0:0:0:0:1]:4101/'),
  row('refuse', 'loop: [::ffff:7f00:1]', 'http://[::ffff:7f00:1]:4101/r/abcdefgh'),
  row('refuse', 'loop: [::ffff:127.0.0.1]', 'http://[::ffff:127.0.0.1]:4101/'),
  row('refuse', 'loop: port with a leading zero', 'http://127.0.0.1:04101/'),
  row('refuse', 'loop: invalid port', 'http://localhost:4101./'),
  row('either', 'loopback on the same port, https', 'https://127.0.0.1:4101/'),
  row('either', 'all-zero address on the same port', 'http://0.0.0.0:4101/'),
  row('either', 'localhost on another port', 'http://localhost:4102/'),
  row('either', 'loopback on the default port', 'http://127.0.0.1/'),
  // Loop aliases of a named redirect host with a port.
  row('refuse', 'loop (named host): the configured origin', `${NAMED_HOST}/r/abcdefgh`, { host: NAMED_HOST }),
  row('refuse', 'loop (named host): 127.0.0.1', 'http://127.0.0.1:4102/r/abcdefgh', { host: NAMED_HOST }),
  row('refuse', 'loop (named host): [::1]', 'http://[::1]:4102/', { host: NAMED_HOST }),
  row('refuse', 'loop (named host): LocalHost.', 'http://LocalHost.:4102/', { host: NAMED_HOST }),
  row('refuse', 'loop (named host): decimal', 'http://2130706433:4102/', { host: NAMED_HOST }),
  row('either', 'named host on another port', 'http://localhost:4101/', { host: NAMED_HOST }),
  // Loop aliases of a redirect host on the default port.
  row('refuse', 'loop (default port): the configured origin', `${DEFAULT_PORT_HOST}/r/abcdefgh`, { host: DEFAULT_PORT_HOST }),
  row('refuse', 'loop (default port): explicit :443 and trailing dot', 'https://QR.EXAMPLE.COM.:443/r/abcdefgh', { host: DEFAULT_PORT_HOST }),
  row('refuse', 'loop (default port): plain http (bounces to https)', 'http://qr.example.com/r/abcdefgh', { host: DEFAULT_PORT_HOST }),
  row('refuse', 'loop (default port): fullwidth letters', 'https://ｑｒ.example.com/r/abcdefgh', { host: DEFAULT_PORT_HOST }),
  // IPv6 and numeric IPv4 forms that are not the redirect host.
  row('store', 'IPv6', 'http://[2001:db8::1]/'),
  row('store', 'IPv6, long upper-case form, port', 'http://[2001:DB8:0:0:0:0:0:1]:8080/x', { normalised: 'http://[2001:db8::1]:8080/x' }),
  row('store', 'IPv4 as one decimal number', 'http://3232235777/', { normalised: 'http://192.168.1.1/' }),
  row('store', 'IPv4 in hexadecimal parts', 'http://0xC0.0xA8.1.1/', { normalised: 'http://192.168.1.1/' }),
  row('store', 'IPv4 with a trailing dot and default port', 'http://192.168.1.1.:80/', { normalised: 'http://192.168.1.1/' }),
  row('store', 'plain IPv4', 'http://8.8.8.8/'),
  row('refuse', 'IPv6 with a zone id', 'http://[fe80::1%25eth0]/'),
  row('refuse', 'IPv4 out of range', 'http://256.256.256.256/'),
  row('refuse', 'five IPv4 parts', 'http://1.2.3.4.5/'),
  row('refuse', 'invalid octal IPv4', 'http://08.1.1.1/'),
  row('refuse', 'unclosed IPv6', 'http://[::1/'),
  row('refuse', 'host name in brackets', 'https://[example.com]/'),
  row('refuse', 'space in the host', 'https://ex ample.com/'),
  // Length.
  row('store', 'exactly 2,048 characters', `https://example.com/${'a'.repeat(2048 - 20)}`),
  row('refuse', 'over-long (2,120 characters)', `https://example.com/${'a'.repeat(2100)}`),
  row('refuse', 'very long (100,020 characters)', `https://example.com/${'x'.repeat(100_000)}`),
  row('either', 'short input, long once percent-encoded', `https://example.com/?q=${'é'.repeat(700)}`),
  row('either', '64-character host label', `https://${'a'.repeat(64)}.example/`),
  row('either', 'host over 253 characters', `https://${`${'a'.repeat(63)}.`.repeat(5)}example/`),
  // Schemes and shapes.
  row('refuse', 'javascript: in mixed case', 'JaVaScRiPt:alert(1)'),
  row('refuse', 'data: URL', 'data:text/html,<script>alert(1)</script>'),
  row('refuse', 'vbscript:', 'vbscript:msgbox(1)'),
  row('refuse', 'file:', 'file:///etc/passwd'),
  row('refuse', 'ftp:', 'ftp://example.com/'),
  row('refuse', 'scheme-relative', '//example.com/'),
  row('either', 'https without slashes', 'https:example.com'),
  row('store', 'dot segments', 'https://example.com/a/../b/./c', { normalised: 'https://example.com/b/c' }),
  row('store', 'invalid percent sequence kept as is', 'https://example.com/%zz'),
  row('store', 'space in the path', 'https://example.com/a b', { normalised: 'https://example.com/a%20b' }),
  row('store', 'surrounding spaces', '  https://example.com/padded  ', { normalised: 'https://example.com/padded' }),
  row('store', 'quotes and angle brackets in the query', `https://example.com/?a="<>'`, { normalised: 'https://example.com/?a=%22%3C%3E%27' }),
  row('either', 'backslash path separator', 'https://example.com\\path'),
];

/** The WHATWG serialisation of a target, or null where the parser refuses it. */
function normalise(target: string): string | null {
  try {
    return new URL(target).href;
  } catch {
    return null;
  }
}

const ASCII_HEADER_VALUE = /^[\x21-\x7e]+$/;

describe('redirect targets: refused or stored normalised, then redirected with an ASCII Location (e2e)', () => {
  const apps = new Map<RedirectHost, { t: TestApp; key: string }>();

  beforeAll(async () => {
    for (const host of [IP_HOST, NAMED_HOST, DEFAULT_PORT_HOST] as const) {
      const t = await startTestApp({ ...GENEROUS_RATE_LIMIT, REDIRECT_URL: host });
      apps.set(host, { t, key: (await t.newAccount()).key });
    }
  });
  afterAll(async () => {
    for (const { t } of apps.values()) await t.close();
  });

  it('the table: at least 60 targets, each store row parseable (and matching its documented normal form)', () => {
    expect(TARGETS.length).toBeGreaterThanOrEqual(60);
    for (const { label, target, outcome, normalised } of TARGETS) {
      if (outcome === 'store') expect({ label, parsed: normalise(target) }).toEqual({ label, parsed: expect.any(String) });
      if (normalised) expect({ label, parsed: normalise(target) }).toEqual({ label, parsed: normalised });
    }
  });

  const outcomeOf = (res: LightMyRequestResponse, stored: number) =>
    res.statusCode === stored ? 'stored' : res.statusCode === 400 ? 'refused' : `answered ${res.statusCode}`;

  it.each(TARGETS)('$outcome: $label', async ({ target, outcome, host = IP_HOST }) => {
    const { t, key } = apps.get(host)!;
    const expected = normalise(target);
    const urlCode = { type: 'url', content: { url: target }, is_dynamic: true };

    const created = await t.request({ method: 'POST', url: '/api/v1/qrcodes', headers: auth(key), payload: urlCode });
    const bulk = await t.request({
      method: 'POST',
      url: '/api/v1/qrcodes/bulk',
      headers: auth(key),
      payload: { qrcodes: [urlCode, { type: 'text', content: { text: 'companion item' } }] },
    });
    const existing = await createQr(t, key, { content: { url: 'https://example.com/before-update' }, is_dynamic: true });
    // Scanned once before the update, so that the update must also replace the cached link.
    expect((await t.request({ method: 'GET', url: `/r/${existing.short_code}` })).statusCode).toBe(302);
    const updated = await updateQr(t, key, existing.id as string, { content: { url: target } });

    expectStatus(bulk, 201);
    const bulkBody = bulk.json<{
      created: Array<{ id: string; short_code: string; content_string: string }>;
      errors: Array<{ index: number; errors: Array<{ field: string }> }>;
    }>();
    expect(bulkBody.created.map((code) => code.content_string)).toContain('companion item');
    const bulkItem = bulkBody.created.find((code) => code.content_string !== 'companion item');
    const bulkOutcome = bulkItem ? 'stored' : bulkBody.errors.some((error) => error.index === 0) ? 'refused' : 'missing';

    const outcomes = { create: outcomeOf(created, 201), bulk: bulkOutcome, update: outcomeOf(updated, 200) };
    const agreed = outcomes.create;
    expect(outcomes).toEqual({ create: agreed, bulk: agreed, update: agreed });
    if (outcome === 'store' || expected === null) expect(agreed).toBe(outcome === 'store' ? 'stored' : 'refused');
    if (outcome === 'refuse') expect(agreed).toBe('refused');
    expect(['stored', 'refused']).toContain(agreed);

    if (agreed === 'refused') {
      expect(errorShapeProblems(created)).toEqual([]);
      expect(namedFields(created)).toContain('content.url');
      expect(errorShapeProblems(updated)).toEqual([]);
      expect(namedFields(updated)).toContain('content.url');
      expect(bulkBody.errors.find((error) => error.index === 0)!.errors.map((error) => error.field)).toContain('content.url');
      return;
    }

    const stored = [
      { via: 'create', id: created.json<{ id: string }>().id, shortCode: created.json<{ short_code: string }>().short_code },
      { via: 'bulk', id: bulkItem!.id, shortCode: bulkItem!.short_code },
      { via: 'update', id: existing.id as string, shortCode: existing.short_code as string },
    ];
    for (const { via, id, shortCode } of stored) {
      const got = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${id}`, headers: auth(key) });
      expect({ via, content: got.json<{ content: string }>().content }).toEqual({ via, content: expected });
      const scan = await t.request({ method: 'GET', url: `/r/${shortCode}` });
      const location = scan.headers.location;
      expect({ via, status: scan.statusCode, asciiLocation: typeof location === 'string' && ASCII_HEADER_VALUE.test(location) }).toEqual({
        via,
        status: 302,
        asciiLocation: true,
      });
      expect({ via, readBack: normalise(location as string) }).toEqual({ via, readBack: expected });
    }
  });

  it('refuses two codes pointing at each other: the second one names the first one’s dynamic_url', async () => {
    const { t, key } = apps.get(IP_HOST)!;
    const first = await createQr(t, key, { content: { url: 'https://example.com/first' }, is_dynamic: true });
    const second = await t.request({
      method: 'POST',
      url: '/api/v1/qrcodes',
      headers: auth(key),
      payload: { type: 'url', content: { url: first.dynamic_url }, is_dynamic: true },
    });
    expectStatus(second, 400);
    expect(errorShapeProblems(second)).toEqual([]);
    expect(namedFields(second)).toContain('content.url');
    const viaAlias = (first.dynamic_url as string).replace('127.0.0.1', 'localhost');
    const updated = await updateQr(t, key, first.id as string, { content: { url: viaAlias } });
    expectStatus(updated, 400);
    expect(errorShapeProblems(updated)).toEqual([]);
    expect(namedFields(updated)).toContain('content.url');
  });
});
