import { redirectHostAliases } from '../../common/web/redirect-target';
import { ThreatKeySet } from '../feeds/threat-keys';
import { patternKey } from '../feeds/threat-keys';
import { type DestinationPolicy, type DestinationRefusalReason, judgeDestination, screenDestination } from './destination-policy';

const policy = (overrides: Partial<DestinationPolicy> = {}): DestinationPolicy => ({
  ownHosts: redirectHostAliases(['https://qr.example.com', 'http://localhost:3000']),
  allowRedirectChains: false,
  allowlist: new ThreatKeySet(),
  ...overrides,
});

const reasonOf = (url: unknown, with_: Partial<DestinationPolicy> = {}) => {
  const screening = screenDestination(url, policy(with_));
  return screening.ok ? 'accepted' : screening.refusal.reason;
};

describe('screenDestination: refusals by reason', () => {
  it.each<[string, unknown, DestinationRefusalReason]>([
    ['not a string', 42, 'invalid_url'],
    ['empty', '', 'invalid_url'],
    ['no scheme', 'example.com/path', 'invalid_url'],
    ['no host', 'https://', 'invalid_url'],
    ['over-long', `https://example.com/${'a'.repeat(2100)}`, 'invalid_url'],
    ['a line break in the path', 'https://example.com/a\r\nSet-Cookie: x', 'invalid_url'],
    ['javascript', 'javascript:alert(1)', 'scheme'],
    ['JaVaScRiPt', 'JaVaScRiPt:alert(1)', 'scheme'],
    ['a tab in javascript', 'java\tscript:alert(1)', 'scheme'],
    ['data', 'data:text/html,<script>alert(1)</script>', 'scheme'],
    ['vbscript', 'vbscript:msgbox(1)', 'scheme'],
    ['file', 'file:///etc/passwd', 'scheme'],
    ['ftp', 'ftp://example.com/x', 'scheme'],
    ['a brand as the user name', 'https://paypal.com@evil.example/', 'credentials_in_url'],
    ['user and password', 'https://user:secret@example.com/', 'credentials_in_url'],
    ['an encoded @ in the user name', 'https://paypal.com%40x@evil.example/', 'credentials_in_url'],
    ['the redirect host', 'https://qr.example.com/r/abc', 'loop'],
    ['the redirect host, upper case with a trailing dot', 'HTTPS://QR.EXAMPLE.COM./r/abc', 'loop'],
    ['a loopback alias of the local origin', 'http://127.0.0.1:3000/r/abc', 'loop'],
    ['a private IPv4 address', 'http://10.0.0.1/', 'private_address'],
    ['192.168/16', 'http://192.168.1.1/admin', 'private_address'],
    ['carrier-grade NAT', 'http://100.64.0.1/', 'private_address'],
    ['link-local metadata', 'http://169.254.169.254/latest/meta-data/', 'private_address'],
    ['loopback on another port', 'http://127.0.0.1:8080/', 'private_address'],
    ['a decimal loopback', 'http://2130706433/', 'private_address'],
    ['a hex loopback', 'http://0x7f.1/', 'private_address'],
    ['0.0.0.0', 'http://0.0.0.0/', 'private_address'],
    ['TEST-NET documentation range', 'http://192.0.2.10/', 'private_address'],
    ['IPv6 loopback', 'http://[::1]:8080/', 'private_address'],
    ['IPv6 unique-local', 'http://[fd00::1]/', 'private_address'],
    ['IPv6 link-local', 'http://[fe80::1]/', 'private_address'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/', 'private_address'],
    ['IPv4-mapped private, hex form', 'http://[::ffff:a00:1]/', 'private_address'],
    ['NAT64 of a private address', 'http://[64:ff9b::c0a8:101]/', 'private_address'],
    ['6to4 of loopback', 'http://[2002:7f00:1::]/', 'private_address'],
    ['localhost on another port', 'http://localhost:8080/', 'private_address'],
    ['a .localhost name', 'http://app.localhost/', 'private_address'],
    ['an mDNS name', 'http://printer.local/', 'private_address'],
    ['a .internal name', 'http://db.internal/', 'private_address'],
    ['home.arpa', 'http://nas.home.arpa/', 'private_address'],
    ['a single-label name', 'http://intranet/', 'private_address'],
    ['a Cyrillic a in a Latin name', 'https://pаypal.com/', 'confusable_host'],
    ['the same in punycode', 'https://xn--pypal-4ve.com/', 'confusable_host'],
    ['Greek omicron in a Latin name', 'https://gοogle.com/', 'confusable_host'],
    ['mixed label in a subdomain', 'https://lоgin.example.com/', 'confusable_host'],
    ['bit.ly', 'https://bit.ly/3abc', 'redirect_chain'],
    ['www.bit.ly', 'https://www.bit.ly/3abc', 'redirect_chain'],
    ['TinyURL, upper case', 'HTTPS://TINYURL.COM/abc', 'redirect_chain'],
    ['t.co with a trailing dot', 'https://t.co./abc', 'redirect_chain'],
  ])('%s: %s → %s', (_case, url, reason) => {
    expect(reasonOf(url)).toBe(reason);
  });

  it('names the problem as a phrase after the field', () => {
    const screening = screenDestination('http://10.0.0.1/', policy());
    expect(!screening.ok && screening.refusal.problem).toBe(
      'must not point to a private or reserved network address (10.0.0.1 is a private address)',
    );
  });
});

describe('screenDestination: ordinary destinations', () => {
  it.each([
    ['plain https', 'https://example.com/spring?utm_source=qr', 'https://example.com/spring?utm_source=qr'],
    ['a single-script IDN', 'https://bücher.example/', 'https://xn--bcher-kva.example/'],
    ['a Greek IDN', 'https://παράδειγμα.δοκιμή/', 'https://xn--hxajbheg2az3al.xn--jxalpdlp/'],
    ['a Cyrillic IDN', 'https://пример.испытание/', 'https://xn--e1afmkfd.xn--80akhbyknj4f/'],
    ['Japanese with Latin', 'https://東京abc.jp/', 'https://xn--abc-dm9di64i.jp/'],
    ['a public IPv4 address', 'http://93.184.216.34/', 'http://93.184.216.34/'],
    ['a public IPv6 address', 'http://[2606:4700:4700::1111]/', 'http://[2606:4700:4700::1111]/'],
    ['the redirect host on another port', 'https://qr.example.com:8443/', 'https://qr.example.com:8443/'],
    ['a shortener-like name that is not one', 'https://notbit.ly.example.com/', 'https://notbit.ly.example.com/'],
    ['a trailing dot', 'https://example.com./x', 'https://example.com./x'],
  ])('%s', (_case, url, href) => {
    const screening = screenDestination(url, policy());
    expect(screening.ok && screening.destination.href).toBe(href);
  });

  it('lets shorteners through when the operator allows redirect chains', () => {
    expect(reasonOf('https://bit.ly/3abc', { allowRedirectChains: true })).toBe('accepted');
  });
});

describe('screenDestination: risk', () => {
  it.each([
    ['an ordinary host', 'https://example.com/', 0],
    ['a brand on its own domain', 'https://www.paypal.com/signin', 0],
    ['a lookalike of a brand', 'https://paypa1.com/', 50],
    ['a lookalike under an abused TLD', 'https://paypal-login.tk/', 75],
    ['a lookalike deep in subdomains under an abused TLD', 'https://secure.login.paypal.com.verify.account.top/', 95],
  ])('%s: %s → %d', (_case, url, score) => {
    const screening = screenDestination(url, policy());
    expect(screening.ok && screening.destination.risk.score).toBe(score);
  });

  it('an allowlisted host carries no risk and is not looked up in feeds', () => {
    const allowlist = new ThreatKeySet([[patternKey('paypal-login.tk')!, 'allowlist']]);
    const screening = screenDestination('https://eu.paypal-login.tk/x', policy({ allowlist }));
    expect(screening.ok && screening.destination.risk.score).toBe(0);
    expect(screening.ok && screening.destination.threatKeys).toEqual([]);
  });
});

describe('judgeDestination', () => {
  const screened = (url: string) => {
    const screening = screenDestination(url, policy());
    if (!screening.ok) throw new Error(screening.refusal.problem);
    return screening.destination;
  };
  const feed = new ThreatKeySet([
    ['h:evil.example', 'urlhaus'],
    ['p:sites.example.com/view/bad', 'openphish'],
  ]);
  const lookups = (servedHosts: string[] = []) => ({ servedHosts: new Set(servedHosts), threatOf: (keys: readonly string[]) => feed.match(keys) });

  it.each([
    ['a host a feed lists', 'https://evil.example/login', 'destination_blocked'],
    ['a subdomain of it', 'https://a.b.evil.example/', 'destination_blocked'],
    ['a listed path', 'https://sites.example.com/view/bad', 'destination_blocked'],
    ['under a listed path', 'https://sites.example.com/view/bad/page?x=1', 'destination_blocked'],
    ['a listed URL carried in the query', 'https://redirector.example/?next=https%3A%2F%2Fevil.example%2F', 'destination_blocked'],
    ['a verified branded domain', 'https://go.brand.example/abc', 'loop'],
    ['another path of the listed site', 'https://sites.example.com/view/good', 'accepted'],
    ['a name that only starts like the listed path', 'https://sites.example.com/view/badge', 'accepted'],
    ['a branded domain on another port', 'https://go.brand.example:8443/', 'accepted'],
    ['a host that ends like a listed one', 'https://notevil.example/', 'accepted'],
  ])('%s: %s → %s', (_case, url, outcome) => {
    const judged = judgeDestination(screened(url), lookups(['go.brand.example']));
    expect(judged.ok ? 'accepted' : judged.refusal.reason).toBe(outcome);
  });

  it('names the feed that blocks', () => {
    const judged = judgeDestination(screened('https://evil.example/'), lookups());
    expect(judged).toEqual({
      ok: false,
      refusal: { reason: 'destination_blocked', feed: 'urlhaus', problem: 'is blocked: the threat feed "urlhaus" lists evil.example' },
    });
  });
});
