import { normaliseRedirectTarget, redirectHostAliases, redirectTargetProblem } from './redirect-target';

const UNSAFE_TARGETS: [string, string, RegExp][] = [
  ['javascript scheme', 'javascript:alert(1)', /http or https/],
  ['mixed-case javascript scheme', 'JaVaScRiPt:alert(1)', /http or https/],
  ['javascript with a tab inside the scheme', 'java\tscript:alert(1)', /control characters/],
  ['javascript with a line break inside the scheme', 'java\nscript:alert(1)', /control characters/],
  ['javascript after leading whitespace', '  javascript:alert(1)', /http or https/],
  ['data URI', 'data:text/html,<script>alert(1)</script>', /http or https/],
  ['vbscript scheme', 'vbscript:msgbox(1)', /http or https/],
  ['file scheme', 'file:///etc/passwd', /http or https/],
  ['ftp scheme', 'ftp://example.com/file.txt', /http or https/],
  ['mailto scheme', 'mailto:someone@example.com', /http or https/],
  ['user name and password', 'https://user:pass@example.com/', /user name or password/],
  ['user name only', 'https://user@example.com/', /user name or password/],
  ['password only', 'https://:secret@example.com/', /user name or password/],
  ['relative reference', '//example.com/path', /http or https/],
  ['no scheme', 'example.com', /http or https/],
  ['no host', 'https://', /http or https/],
  ['invalid host', 'https://exa mple.com/', /http or https/],
  ['header injection attempt', 'https://example.com/\r\nSet-Cookie: a=b', /control characters/],
  ['empty', '', /empty/],
  ['blank', '   ', /empty/],
  ['longer than 2048 characters', `https://example.com/${'a'.repeat(2029)}`, /2048/],
];

const SAFE_TARGETS: [string, string][] = [
  ['plain http', 'http://example.com'],
  ['https with query and fragment', 'https://example.com/path?q=1&r=%20#fragment'],
  ['upper-case scheme and host', 'HTTPS://EXAMPLE.COM/Path'],
  ['internationalised host and path', 'https://例え.jp/パス?名前=値'],
  ['IPv6 host with port', 'https://[2001:db8::1]:8443/x'],
  ['explicit port', 'https://example.com:8080/'],
  ['exactly 2048 characters', `https://example.com/${'a'.repeat(2028)}`],
];

describe('redirectTargetProblem', () => {
  test.each(UNSAFE_TARGETS)('refuses %s', (_case, url, problem) => {
    expect(redirectTargetProblem(url)).toMatch(problem);
  });

  test.each(SAFE_TARGETS)('accepts %s', (_case, url) => {
    expect(redirectTargetProblem(url)).toBeNull();
  });

  test('refuses a value that is not a string', () => {
    expect(redirectTargetProblem(42)).toBe('must be a string');
  });

  describe('own redirect host', () => {
    test.each<[string[], string]>([
      [['r.example.com'], 'https://r.example.com/r/abc123'],
      [['r.example.com'], 'http://R.Example.COM/r/abc123'],
      [['r.example.com'], 'https://r.example.com./r/abc123'],
      [['r.example.com'], 'https://r.example.com:443/r/abc123'],
      [['R.EXAMPLE.COM'], 'https://r.example.com/'],
      [['other.test', 'r.example.com'], 'https://r.example.com/'],
      [['localhost:3000'], 'http://localhost:3000/r/abc123'],
      [['localhost:3000'], 'http://LOCALHOST:3000/'],
      [['qr.example.com:443'], 'https://qr.example.com/x'],
      [['https://qr.example.com'], 'http://qr.example.com/r/abc123'],
      [['http://localhost:3000/'], 'http://localhost:3000/r/abc123'],
      [['[::1]:3000'], 'http://[::1]:3000/r/abc123'],
      [['127.0.0.1:3000'], 'http://0x7f.0.0.1:3000/r/abc123'],
      [['http://127.0.0.1:4101'], 'http://localhost:4101/r/abc123'],
      [['http://127.0.0.1:4101'], 'http://[::ffff:7f00:1]:4101/r/abc123'],
      [['http://127.0.0.1:4101'], 'http://[::ffff:127.0.0.1]:4101/r/abc123'],
      [['http://127.0.0.1:4101'], 'http://[::1]:4101/'],
      [['http://127.0.0.1:4101'], 'http://2130706433:4101/'],
      [['http://127.0.0.1:4101'], 'http://0177.0.0.1:4101/'],
      [['http://127.0.0.1:4101'], 'http://127.1:4101/'],
      [['http://127.0.0.1:4101'], 'http://127.0.0.2:4101/'],
      [['http://127.0.0.1:4101'], 'http://0.0.0.0:4101/'],
      [['http://127.0.0.1:4101'], 'http://app.localhost:4101/'],
      [['http://localhost:4101'], 'http://127.0.0.1:4101/'],
      [['http://[::1]:4101'], 'http://localhost:4101/'],
    ])('%j refuses %s', (ownHosts, url) => {
      expect(redirectTargetProblem(url, redirectHostAliases(ownHosts))).toBe("must not point to this service's own links (a redirect loop)");
    });

    test.each<[string[], string]>([
      [['r.example.com'], 'https://example.com/'],
      [['r.example.com'], 'https://sub.r.example.com/'],
      [['r.example.com'], 'https://r.example.com:8443/'],
      [['localhost:3000'], 'http://localhost:8080/'],
      [['localhost:3000'], 'http://localhost/'],
      [['[::1]:3000'], 'http://[::1]:8080/'],
      [[], 'https://r.example.com/'],
      [['not a host at all ::'], 'https://example.com/'],
      [['http://127.0.0.1:4101'], 'http://localhost:4102/'],
      [['http://127.0.0.1:4101'], 'http://10.0.0.1:4101/'],
    ])('%j accepts %s', (ownHosts, url) => {
      expect(redirectTargetProblem(url, redirectHostAliases(ownHosts))).toBeNull();
    });
  });
});

describe('normaliseRedirectTarget', () => {
  test.each([
    ['an IDN host (Cyrillic look-alike)', 'https://аррӏе.com/', 'https://xn--80ak6aa92e.com/'],
    ['a Latin-1 host', 'https://bücher.example/', 'https://xn--bcher-kva.example/'],
    ['an emoji path', 'https://example.com/😀', 'https://example.com/%F0%9F%98%80'],
    ['U+2028 in the path', 'https://example.com/a\u2028b', 'https://example.com/a%E2%80%A8b'],
    ['a space and non-ASCII in query and fragment', 'https://example.com/?q=a b#frag ü', 'https://example.com/?q=a%20b#frag%20%C3%BC'],
    ['upper-case scheme and host, default port', 'HTTPS://EXAMPLE.COM:443/Path', 'https://example.com/Path'],
    ['a bare origin', 'http://example.com', 'http://example.com/'],
    ['dot segments', 'https://example.com/a/../b/./c', 'https://example.com/b/c'],
  ])('stores %s in its normal form', (_case, url, href) => {
    expect(normaliseRedirectTarget(url)).toEqual({ ok: true, href });
  });

  test('is stable: the normal form normalises to itself, in plain ASCII', () => {
    for (const url of ['https://аррӏе.com/ä?ö=ü#ß', 'https://example.com/😀?q="x"<y>']) {
      const first = normaliseRedirectTarget(url);
      if (!first.ok) throw new Error(first.problem);
      expect(first.href).toMatch(/^[\x21-\x7e]+$/);
      expect(normaliseRedirectTarget(first.href)).toEqual(first);
    }
  });

  test('refuses a target that grows past 2048 characters once percent-encoded', () => {
    expect(normaliseRedirectTarget(`https://example.com/${'é'.repeat(1000)}`)).toEqual({
      ok: false,
      problem: expect.stringMatching(/once normalised/),
      reason: 'invalid_url',
    });
  });
});

describe('normaliseRedirectTarget: reasons for machines', () => {
  test.each([
    ['javascript:alert(1)', 'scheme'],
    ['java\tscript:alert(1)', 'scheme'],
    ['data:text/html,x', 'scheme'],
    ['https://user@example.com/', 'credentials_in_url'],
    ['https://qr.example.com/r/x', 'loop'],
    ['example.com', 'invalid_url'],
    ['', 'invalid_url'],
    ['https://example.com/\r\nx', 'invalid_url'],
  ])('%j → %s', (url, reason) => {
    const check = normaliseRedirectTarget(url, redirectHostAliases(['https://qr.example.com']));
    expect(!check.ok && check.reason).toBe(reason);
  });
});
