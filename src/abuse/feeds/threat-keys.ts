import { comparableHost, hostAndParents } from '../host-suffixes';

/**
 * The compact form of threat-feed entries and of the destinations looked up in them
 * (docs/abuse-handling.md#matching). An entry is one key:
 *
 * - `h:<host>`: a host; it blocks the host and its subdomains;
 * - `p:<host><path>`: a host and path; it blocks that path and everything under it (`/view/bad`
 *   blocks `/view/bad/1`, not `/view/badge` nor `/view/good`);
 * - `u:<host><path>?<query>`: one URL at the root of a host with a query; only that URL.
 *
 * A destination is looked up by its keys: the exact URL, then its host and each parent domain,
 * then each path prefix. Schemes and ports are not part of a key (a threat on http is one on
 * https); paths are compared after RFC 3986 normalisation (unreserved characters decoded, hex in
 * upper case, empty segments dropped). Pure.
 */
export type ThreatKey = string;

/** Path segments kept in a key: deeper entries are cut to this depth (blocking a little more), so lookups stay bounded. */
export const MAX_KEY_SEGMENTS = 16;
const MAX_KEY_LENGTH = 2048;

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** A path as keys compare it: `/a//b/%7euser/` → `/a/b/~user`; the root is ''. */
export function normalisedPath(pathname: string): string {
  const segments = pathname
    .replace(/%[0-9a-fA-F]{2}/g, (escape) => {
      const char = String.fromCharCode(parseInt(escape.slice(1), 16));
      return UNRESERVED.test(char) ? char : escape.toUpperCase();
    })
    .split('/')
    .filter((segment) => segment !== '');
  return segments
    .slice(0, MAX_KEY_SEGMENTS)
    .map((segment) => `/${segment}`)
    .join('');
}

export const hostKey = (host: string): ThreatKey => `h:${host}`;

/** A URL of a feed or a pattern, with `http://` assumed when it has no scheme; null when it is not an http(s) URL with a host. */
export function parseLooseUrl(text: string): URL | null {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > MAX_KEY_LENGTH) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  try {
    const url = new URL(withScheme);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || comparableHost(url.hostname) === '') return null;
    return url;
  } catch {
    return null;
  }
}

/** The key of one feed entry given as a URL: a host entry when it has no path (nor query), else a path or URL entry. */
export function entryKeyOfUrl(text: string): ThreatKey | null {
  const url = parseLooseUrl(text);
  if (!url) return null;
  const host = comparableHost(url.hostname);
  const path = normalisedPath(url.pathname);
  if (path !== '') return `p:${host}${path}`;
  return url.search.length > 1 ? `u:${host}?${url.search.slice(1)}` : hostKey(host);
}

/**
 * The key of an operator's pattern (THREAT_ALLOWLIST, a blocked destination): a host or a host and
 * path prefix, a scheme allowed and ignored; null when it is neither (a query or fragment, no host).
 */
export function patternKey(text: string): ThreatKey | null {
  const url = parseLooseUrl(text);
  if (!url || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return null;
  const host = comparableHost(url.hostname);
  const path = normalisedPath(url.pathname);
  return path === '' ? hostKey(host) : `p:${host}${path}`;
}

/** The keys a destination is looked up by, in the order of the rule: exact URL, host and parents, path prefixes. */
export function lookupKeys(url: URL): ThreatKey[] {
  const host = comparableHost(url.hostname);
  const path = normalisedPath(url.pathname);
  const keys: ThreatKey[] = [];
  if (path === '' && url.search.length > 1) keys.push(`u:${host}?${url.search.slice(1)}`);
  keys.push(...hostAndParents(host).map(hostKey));
  let prefix = '';
  for (const segment of path.split('/').slice(1)) {
    prefix += `/${segment}`;
    keys.push(`p:${host}${prefix}`);
  }
  return keys;
}

/** A key as people read it: `evil.example`, `sites.example/view/bad`, `evil.example/?id=1`. */
export function describeKey(key: ThreatKey): string {
  return key.startsWith('u:') ? key.slice(2).replace('?', '/?') : key.slice(2);
}

export interface ThreatMatch {
  /** the feed's name */
  feed: string;
  key: ThreatKey;
}

/** Keys and the feed each came from, held in memory (the allowlist; a feed while it is parsed and compared). */
export class ThreatKeySet {
  private readonly feeds = new Map<ThreatKey, string>();

  constructor(entries: Iterable<readonly [ThreatKey, string]> = []) {
    for (const [key, feed] of entries) if (!this.feeds.has(key)) this.feeds.set(key, feed);
  }

  get size(): number {
    return this.feeds.size;
  }

  /** The first of `keys` in the set (keys in lookup order), or null. */
  match(keys: readonly ThreatKey[]): ThreatMatch | null {
    for (const key of keys) {
      const feed = this.feeds.get(key);
      if (feed !== undefined) return { feed, key };
    }
    return null;
  }
}
