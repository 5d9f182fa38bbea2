import { isIP } from 'node:net';
import { parse as parseCsv } from 'csv-parse/sync';
import { entryKeyOfUrl, hostKey, parseLooseUrl, type ThreatKey } from './threat-keys';
import { comparableHost } from '../host-suffixes';

/**
 * Parsers of the threat-feed formats (docs/abuse-handling.md#feeds): each turns a downloaded body
 * into the set of keys it lists (threat-keys.ts), counting the lines it could not use. A body that
 * is not in the format at all (a CSV that does not parse, JSON that is not an array) throws a
 * FeedFormatError, and the feed keeps its previous set. Pure.
 */

export const FEED_FORMATS = ['urlhaus', 'urls', 'phishtank', 'hosts'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

export interface ParsedFeed {
  keys: Set<ThreatKey>;
  /** lines or records that named nothing usable (not a URL, a local name) */
  skipped: number;
}

export class FeedFormatError extends Error {}

export function parseFeed(format: FeedFormat, body: string): ParsedFeed {
  switch (format) {
    case 'urlhaus':
      return parseUrlhaus(body);
    case 'urls':
      return collect(lines(body), entryKeyOfUrl);
    case 'phishtank':
      return parsePhishtank(body);
    case 'hosts':
      return collect(lines(body).flatMap(hostsOfLine), entryKeyOfHost);
  }
}

function collect(values: readonly string[], keyOf: (value: string) => ThreatKey | null): ParsedFeed {
  const keys = new Set<ThreatKey>();
  let skipped = 0;
  for (const value of values) {
    const key = keyOf(value);
    if (key === null) skipped++;
    else keys.add(key);
  }
  return { keys, skipped };
}

/** Non-blank lines that are not `#` comments, trimmed. */
function lines(body: string): string[] {
  return body
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

function readCsv(body: string): string[][] {
  try {
    return parseCsv(body, { comment: '#', comment_no_infix: true, relax_column_count: true, skip_empty_lines: true, trim: true });
  } catch (error) {
    throw new FeedFormatError(`not CSV: ${(error as Error).message}`);
  }
}

/**
 * URLhaus CSV dumps (`csv_online`, `csv_recent`): `#` comments, the last of which names the
 * columns (`# id,dateadded,url,url_status,…`); the URL is the third column unless that header says otherwise.
 */
function parseUrlhaus(body: string): ParsedFeed {
  const header = body
    .match(/^#\s*(id,.*url.*)$/m)?.[1]
    ?.split(',')
    .map((name) => name.trim());
  const column = header ? header.indexOf('url') : 2;
  return collect(
    readCsv(body).map((row) => row[column] ?? ''),
    entryKeyOfUrl,
  );
}

/**
 * PhishTank's `online-valid` CSV (a header row naming `url`) or JSON (an array of objects with
 * `url`); entries marked unverified or offline are left out.
 */
function parsePhishtank(body: string): ParsedFeed {
  const records = body.trimStart().startsWith('[') ? jsonRecords(body) : csvRecords(body);
  let dropped = 0;
  const urls: string[] = [];
  for (const record of records) {
    if (isNo(record.verified) || isNo(record.online)) dropped++;
    else urls.push(typeof record.url === 'string' ? record.url : '');
  }
  const parsed = collect(urls, entryKeyOfUrl);
  return { keys: parsed.keys, skipped: parsed.skipped + dropped };
}

const isNo = (value: unknown): boolean => value === 'no' || value === false;

function jsonRecords(body: string): Record<string, unknown>[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw new FeedFormatError(`not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new FeedFormatError('not a JSON array of entries');
  return parsed.map((item) => (typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {}));
}

function csvRecords(body: string): Record<string, unknown>[] {
  const [header, ...rows] = readCsv(body);
  if (!header?.includes('url')) throw new FeedFormatError('a PhishTank CSV starts with a header row naming the url column');
  return rows.map((row) => Object.fromEntries(header.map((name, index) => [name, row[index]])));
}

/** Names a hosts file maps for the machine itself, never a threat. */
const LOCAL_NAMES = new Set(['localhost', 'localhost.localdomain', 'local', 'broadcasthost', 'ip6-localhost', 'ip6-loopback', '0.0.0.0']);

/** `0.0.0.0 evil.example other.example # note` → the names; `evil.example` → itself. */
function hostsOfLine(line: string): string[] {
  const fields = line.replace(/#.*$/, '').trim().split(/\s+/).filter(Boolean);
  return fields.length > 1 && isIP(fields[0]) !== 0 ? fields.slice(1) : fields.slice(0, 1);
}

/** A host line's name, as a host key; null for local names, single labels and anything with a path. */
function entryKeyOfHost(name: string): ThreatKey | null {
  const url = parseLooseUrl(name);
  if (!url || url.pathname !== '/' || url.search !== '' || /[/?#@]/.test(name)) return null;
  const host = comparableHost(url.hostname);
  if (LOCAL_NAMES.has(host) || (!host.includes('.') && !host.includes(':'))) return null;
  return hostKey(host);
}
