import { FEED_FORMATS, type FeedFormat } from './feed-parsers';
import { patternKey, type ThreatKey } from './threat-keys';

/**
 * The operator's threat-feed settings (docs/abuse-handling.md#configuration): `THREAT_FEEDS` lists
 * feeds as comma-separated `[name=]format:location` entries, the location an http(s) URL or a file
 * path; `THREAT_ALLOWLIST` lists hosts and host + path prefixes that no feed can block. Pure.
 */

export interface FeedSource {
  /** names the feed in refusals, metrics and the admin API; defaults to the format */
  name: string;
  format: FeedFormat;
  /** an http(s) URL to download, or a path of a file to read */
  location: string;
  kind: 'url' | 'file';
}

/** The name of the operator's own feed (`POST /api/v1/admin/blocked-destinations`): no configured feed may take it. */
export const LOCAL_FEED = 'local';

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

const NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const FORMATS = FEED_FORMATS.join('|');
/** Entries are split at commas that start another `[name=]format:` entry: a URL may contain commas. */
const ENTRY_START = new RegExp(`,(?=\\s*(?:[a-z0-9][a-z0-9_-]*=)?(?:${FORMATS}):)`, 'i');
const ENTRY = new RegExp(`^(?:([^=:]+)=)?(${FORMATS}):(.+)$`, 'i');

export function parseThreatFeeds(text: string | undefined): Parsed<FeedSource[]> {
  if (text === undefined || text.trim() === '') return { ok: true, value: [] };
  const feeds: FeedSource[] = [];
  for (const entry of text.split(ENTRY_START).map((part) => part.trim())) {
    const match = ENTRY.exec(entry);
    if (!match) return { ok: false, problem: `"${entry}" is not [name=]format:location with a format of ${FEED_FORMATS.join(', ')}` };
    const format = match[2].toLowerCase() as FeedFormat;
    const name = (match[1] ?? format).trim().toLowerCase();
    const location = match[3].trim();
    if (!NAME.test(name)) return { ok: false, problem: `feed name "${name}" must be 1 to 63 letters, digits, - or _` };
    if (name === LOCAL_FEED) return { ok: false, problem: `feed name "${LOCAL_FEED}" is the operator's own blocked destinations` };
    if (feeds.some((feed) => feed.name === name))
      return { ok: false, problem: `feed name "${name}" is used twice (name each feed: name=format:location)` };
    const kind = /^https?:\/\//i.test(location) ? 'url' : 'file';
    if (kind === 'url' && !URL.canParse(location)) return { ok: false, problem: `feed "${name}": "${location}" is not a valid URL` };
    feeds.push({ name, format, location, kind });
  }
  return { ok: true, value: feeds };
}

/** THREAT_ALLOWLIST: comma-separated hosts (covering their subdomains) or host + path prefixes. */
export function parseAllowlist(text: string | undefined): Parsed<ThreatKey[]> {
  if (text === undefined || text.trim() === '') return { ok: true, value: [] };
  const keys: ThreatKey[] = [];
  for (const entry of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const key = patternKey(entry);
    if (key === null) return { ok: false, problem: `"${entry}" is not a host or a host and path (example.com, example.com/docs)` };
    keys.push(key);
  }
  return { ok: true, value: keys };
}
