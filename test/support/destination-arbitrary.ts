import fc from 'fast-check';

/**
 * Destinations of each refused class (docs/abuse-handling.md#what-is-checked), dressed up the ways
 * people hide them: case, trailing dots, ports, user names, percent- and IDN-encodings, numeric IP
 * forms, IPv6 literals, and redirects nested in a query. The destination fuzz (pure and e2e)
 * screens each and fails on a silent acceptance. Hosts of the test policy: the service is
 * https://qr.example.com, go.brand.example is a verified branded domain, a feed lists
 * evil.example and sites.example.com/view/bad.
 */

export const FUZZ_OWN_ORIGINS = ['https://qr.example.com', 'http://localhost:3000'];
export const FUZZ_SERVED_HOST = 'go.brand.example';
export const FUZZ_FEED: [string, string][] = [
  ['h:evil.example', 'fuzzfeed'],
  ['p:sites.example.com/view/bad', 'fuzzfeed'],
];

export type RefusedClass =
  'scheme' | 'credentials_in_url' | 'private_address' | 'loop' | 'redirect_chain' | 'confusable_host' | 'destination_blocked';

const caseMix = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((upper) => [...text].map((char, index) => (upper[index] ? char.toUpperCase() : char)).join(''));
const trailingDot = fc.constantFrom('', '.');
const port = fc.constantFrom('', ':80', ':443', ':8080', ':65535');
const path = fc.constantFrom('', '/', '/r/abc', '/a/../b', '/%2e%2e/x', '/x?y=1#f', '//double', '/%00', '/ü');
/** Controls and spaces the URL parser strips or refuses: never a way through. */
const noise = fc.constantFrom('', ' ', '\t', '\n', '\u0000', '\u00a0');

const scheme = fc
  .tuple(
    fc.constantFrom(
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'vbscript:x',
      'file:///etc/passwd',
      'ftp://example.com/',
      'blob:https://example.com/x',
      'ws://example.com/',
      'mailto:a@example.com',
    ),
    noise,
    fc.nat({ max: 8 }),
  )
  .chain(([url, inserted, at]) => caseMix(url).map((mixed) => `${mixed.slice(0, at)}${inserted}${mixed.slice(at)}`));

const userinfo = fc.constantFrom('paypal.com', 'user:pass', ':secret', 'a%40b', 'ü', 'https%3A%2F%2Fbank.example', 'x:y:z');
const credentials = fc
  .tuple(
    fc.constantFrom('http', 'https', 'HTTPS'),
    userinfo,
    fc.constantFrom('evil.example', 'example.com', '93.184.216.34', '[2606:4700::1]'),
    port,
    path,
  )
  .map(([s, user, host, p, tail]) => `${s}://${user}@${host}${p}${tail}`);

/** Loopback, private, link-local and reserved addresses, in the notations the URL parser accepts. */
const privateHost = fc.constantFrom(
  '127.0.0.1', '127.1', '2130706433', '0x7f000001', '0x7f.0.0.1', '0177.0.0.1', '017700000001', '10.0.0.1', '10.1', '167772161',
  '172.16.0.1', '192.168.0.1', '0xc0.0xa8.1.1', '169.254.169.254', '0xa9fea9fe', '100.64.0.1', '0.0.0.0', '0', '224.0.0.1',
  '255.255.255.255', '192.0.2.1', '198.51.100.7', '[::1]', '[0:0:0:0:0:0:0:1]', '[::]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]',
  '[::ffff:10.0.0.1]', '[::ffff:a9fe:a9fe]', '[fe80::1]', '[fc00::1]', '[fd12:3456::1]', '[ff02::1]', '[64:ff9b::7f00:1]',
  '[2002:c0a8:101::]', '[::127.0.0.1]', '[2001:db8::1]', 'localhost', 'LOCALHOST.', 'a.localhost', 'printer.local', 'db.internal',
  'router.home.arpa', 'intranet',
); // prettier-ignore
const privateAddress = fc
  .tuple(fc.constantFrom('http', 'https'), privateHost, trailingDot, fc.constantFrom('', ':8081', ':9999'), path)
  .map(([s, host, dot, p, tail]) => {
    const dotted = host.startsWith('[') ? host : `${host}${dot}`;
    return `${s}://${dotted}${p}${tail}`;
  });

const loop = fc.oneof(
  fc
    .tuple(caseMix('qr.example.com'), trailingDot, fc.constantFrom('', ':443'), path)
    .map(([host, dot, p, tail]) => `https://${host}${dot}${p}${tail}`),
  fc
    .tuple(fc.constantFrom('localhost', '127.0.0.1', '[::1]', '127.9.9.9', 'app.localhost', '[::ffff:127.0.0.1]', '0.0.0.0', '2130706433'), path)
    .map(([host, tail]) => `http://${host}:3000${tail}`),
  fc
    .tuple(caseMix(FUZZ_SERVED_HOST), trailingDot, fc.constantFrom('http', 'https'), path)
    .map(([host, dot, s, tail]) => `${s}://${host}${dot}${tail}`),
);

const redirectChain = fc
  .tuple(fc.constantFrom('bit.ly', 'tinyurl.com', 't.co', 'is.gd', 'rb.gy', 'cutt.ly'), fc.constantFrom('', 'www.', 'm.'), trailingDot, port, path)
  .chain(([host, sub, dot, p, tail]) => caseMix(`${sub}${host}`).map((mixed) => `https://${mixed}${dot}${p}${tail}`));

/** One Latin letter of a name swapped for a Cyrillic or Greek lookalike, written in Unicode or punycode. */
const confusable = fc
  .tuple(
    fc.constantFrom('paypal', 'google', 'login', 'account', 'apple'),
    fc.nat({ max: 5 }),
    fc.constantFrom('а', 'о', 'е', 'р', 'с', 'ο', 'α'),
    fc.boolean(),
    fc.constantFrom('', 'www.'),
    trailingDot,
  )
  .map(([name, at, char, punycode, sub, dot]) => {
    const index = at % name.length;
    const label = `${name.slice(0, index)}${char}${name.slice(index + 1)}`;
    const host = `${sub}${label}.example${dot}`;
    return `https://${punycode ? new URL(`https://${host}`).hostname : host}/`;
  });

const blockedPath = fc.constantFrom(
  '/view/bad',
  '/view/bad/',
  '/view//bad',
  '/view/%62ad',
  '/view/bad/deeper?x=1',
  '/view/./bad',
  '/x/../view/bad',
  '/view/bad#frag',
);
const blocked = fc.oneof(
  fc
    .tuple(fc.constantFrom('', 'www.', 'a.b.'), caseMix('evil.example'), trailingDot, port, path)
    .map(([sub, host, dot, p, tail]) => `https://${sub}${host}${dot}${p}${tail}`),
  fc.tuple(caseMix('sites.example.com'), trailingDot, port, blockedPath).map(([host, dot, p, tail]) => `https://${host}${dot}${p}${tail}`),
  fc
    .tuple(fc.constantFrom('https://evil.example/', 'https://sites.example.com/view/bad', 'http://x.evil.example/login'), fc.boolean())
    .map(
      ([inner, twice]) =>
        `https://redirector.example/out?next=${encodeURIComponent(twice ? `https://other.example/?u=${encodeURIComponent(inner)}` : inner)}`,
    ),
);

export const REFUSED_DESTINATIONS: Record<RefusedClass, fc.Arbitrary<string>> = {
  scheme,
  credentials_in_url: credentials,
  private_address: privateAddress,
  loop,
  redirect_chain: redirectChain,
  confusable_host: confusable,
  destination_blocked: blocked,
};

/** A refused destination of any class, with the class it belongs to. */
export const refusedDestination: fc.Arbitrary<[RefusedClass, string]> = fc.oneof(
  ...(Object.entries(REFUSED_DESTINATIONS) as [RefusedClass, fc.Arbitrary<string>][]).map(([name, arbitrary]) =>
    arbitrary.map((url): [RefusedClass, string] => [name, url]),
  ),
);

/** Anything at all in a destination field: web URLs with odd parts, and junk. */
export const anyDestination: fc.Arbitrary<unknown> = fc.oneof(
  fc.webUrl({
    withQueryParameters: true,
    withFragments: true,
    authoritySettings: { withIPv4: true, withIPv6: true, withPort: true, withUserInfo: true },
  }),
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map((text) => `https://${text}/`),
  fc.constantFrom(null, 1, true, [], {}, 'https://', 'http://[::1', 'https://a..b/', 'https://xn--/', 'https://xn--zz.example/'),
);
