import { unicodeHost } from './host-scripts';
import { assessRisk, type RiskSign, skeleton, withinOneEdit } from './risk-score';

const risk = (text: string) => {
  const url = new URL(text);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return assessRisk({ url, host, unicodeHost: unicodeHost(host), carriesUrl: /[?&][^=]+=https?:/.test(text) });
};

describe('assessRisk', () => {
  it.each<[string, string, RiskSign[], number]>([
    ['an ordinary host', 'https://example.com/', [], 0],
    ['a brand on its own domain', 'https://accounts.google.com/', [], 0],
    ['a brand under a country domain', 'https://www.amazon.de/', [], 0],
    ['a brand as a word of another name', 'https://paypal-login.example/', ['brand_lookalike'], 50],
    ['a brand with a digit for a letter', 'https://paypa1.example/', ['brand_lookalike'], 50],
    ['a brand one letter off', 'https://microsofft.example/', ['brand_lookalike'], 50],
    ['rn for m', 'https://arnazon.example/', ['brand_lookalike'], 50],
    ['a whole-script Cyrillic lookalike', 'https://аррӏе.example/', ['brand_lookalike'], 50],
    ['a brand as a subdomain of another domain', 'https://paypal.com.secure.example/', ['brand_lookalike'], 50],
    ['a short brand inside another word', 'https://groups.example/', [], 0],
    ['a brand name inside a longer ordinary word', 'https://pineapple.example/', [], 0],
    ['a brand name under an abused country TLD', 'https://paypal.tk/', ['abused_tld', 'brand_lookalike'], 75],
    ['an abused TLD', 'https://shop.example.xyz/', ['abused_tld'], 25],
    ['deep subdomains', 'https://a.b.c.d.example.com/', ['deep_subdomains'], 20],
    ['many hyphens', 'https://secure-account-verify-now.example/', ['many_hyphens'], 10],
    ['a public IP address and a port', 'http://203.0.113.5:8080/x', ['ip_address', 'unusual_port'], 40],
    ['a URL in the query', 'https://example.com/out?to=https://other.example/', ['nested_url'], 15],
    ['a single-script IDN', 'https://bücher.example/', [], 0],
    [
      'everything at once (capped)',
      'https://a.b.c.d.paypal-secure-login-now.top:8443/?u=https://x.example',
      ['abused_tld', 'deep_subdomains', 'many_hyphens', 'unusual_port', 'nested_url', 'brand_lookalike'],
      100,
    ],
  ])('%s: %s', (_case, url, signs, score) => {
    const assessed = risk(url);
    expect(assessed.findings.map((finding) => finding.sign)).toEqual(signs);
    expect(assessed.score).toBe(score);
  });

  it('no single sign reaches the default warning threshold of 70', () => {
    for (const url of ['https://paypa1.example/', 'http://203.0.113.5/', 'https://a.b.c.d.e.f.example.com/'])
      expect(risk(url).score).toBeLessThan(70);
  });
});

describe('skeleton and withinOneEdit', () => {
  it.each([
    ['pаypal', 'paypal'],
    ['PAYPA1', 'paypal'],
    ['arnazon', 'amazon'],
    ['vvells', 'wells'],
    ['bücher', 'bucher'],
  ])('skeleton(%s) = %s', (text, expected) => {
    expect(skeleton(text)).toBe(expected);
  });

  it.each([
    ['paypal', 'paypal', false],
    ['paypall', 'paypal', true],
    ['paypl', 'paypal', true],
    ['paypat', 'paypal', true],
    ['papyal', 'paypal', true],
    ['paaypl', 'paypal', false],
    ['netflex', 'netflix', true],
  ])('withinOneEdit(%s, %s) = %s', (a, b, expected) => {
    expect(withinOneEdit(a, b)).toBe(expected);
  });
});
