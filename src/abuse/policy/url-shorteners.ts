import { hostAndParents } from '../host-suffixes';

/**
 * General-purpose URL shorteners (docs/abuse-handling.md#redirect-chains): a destination on one of
 * these hosts (or a subdomain) hides where a scan really ends, so it is refused with reason
 * `redirect_chain` unless the operator sets ALLOW_REDIRECT_CHAINS. Shorteners that lead only to
 * their own company's pages (youtu.be, amzn.to, g.co) are not chains to an unknown place and are
 * not listed. Kept by hand; additions are welcome with a public source.
 */
export const URL_SHORTENERS: readonly string[] = [
  '1url.com',
  '2u.pw',
  'adf.ly',
  'bc.vc',
  'bit.do',
  'bit.ly',
  'bitly.com',
  'bl.ink',
  'buff.ly',
  'clck.ru',
  'cli.re',
  'cutt.ly',
  'dlvr.it',
  'dub.sh',
  'goo.gl',
  'gg.gg',
  'is.gd',
  'kutt.it',
  'lnkd.in',
  'ow.ly',
  'qr.ae',
  'qrco.de',
  'rb.gy',
  'rebrand.ly',
  's.id',
  'short.gy',
  'shorte.st',
  'shorturl.at',
  'shrtco.de',
  'snip.ly',
  'soo.gd',
  'surl.li',
  't.co',
  't.ly',
  'tiny.cc',
  'tiny.one',
  'tinyurl.com',
  'trib.al',
  'u.to',
  'v.gd',
  'x.co',
];

const SHORTENER_SET = new Set(URL_SHORTENERS);

/** The listed shortener `host` is on (itself or a parent domain), or null. `host`: as `comparableHost` gives it. */
export function shortenerOf(host: string): string | null {
  return hostAndParents(host).find((suffix) => SHORTENER_SET.has(suffix)) ?? null;
}
