import type { FieldError } from '../../common/validation/field-error';
import type { LinkRule, Utm } from '../../smart-links/settings/link-settings';
import { checkTagName, MAX_TAGS_PER_CODE, tagKey } from '../../tags/tag-names';

/**
 * One link read from another service's file (docs/migrating.md), pure: what to create (a dynamic
 * url code in the create request's terms), where its short link was, and what of the record does
 * not come along, field by field in the source's own names. Nothing is dropped without a note.
 */
export interface ImportedLink {
  /** The record's number: a CSV line counting the header as 1, or a JSON item's position from 1. */
  row: number;
  /** The record's short links at the source, the one worth keeping first (a branded one before the service's own). */
  shortLinks: SourceShortLink[];
  /** The source's creation date, kept as the code's created_at (null: none, or not readable). */
  createdAt: Date | null;
  item: ImportedItem;
  /** What of the record does not come along (the source's field, and why). */
  unmapped: FieldError[];
  /** Why the record cannot be imported at all (no target). */
  problems: FieldError[];
}

/** A short link at the source. */
export interface SourceShortLink {
  /** null: the file does not say (a YOURLS table, a Kutt link on its default domain) */
  host: string | null;
  shortCode: string;
  /** false: the host is the source service's own (bit.ly, dub.sh): the address cannot move here */
  movable: boolean;
}

/** A dynamic url code, in the create request's field names. */
export interface ImportedItem {
  name: string;
  url: string;
  tags: string[];
  expires_at?: string;
  /** The link had stopped at the source (expired, disabled, banned): imported paused. */
  paused?: boolean;
  max_scans?: number;
  rules?: LinkRule[];
  utm?: Utm;
  password?: string;
}

/** The two ways a source's file comes: told apart by the request's Content-Type. */
export type SourceFormat = 'csv' | 'json';

export type SourceRead = { ok: true; links: ImportedLink[] } | { ok: false; errors: FieldError[] };

const MAX_NAME_LENGTH = 100;

/** Collects one record's mapping: its notes, and the fields that are read with a note when they cannot be. */
export class LinkMapping {
  readonly unmapped: FieldError[] = [];
  readonly problems: FieldError[] = [];

  note(field: string, message: string): void {
    this.unmapped.push({ field, message: `${field}: ${message}` });
  }

  problem(field: string, message: string): void {
    this.problems.push({ field, message: `${field}: ${message}` });
  }

  /** The code's name: the title, else the short link (`host/code`) or the target; cut to 100 characters, with a note. */
  name(field: string, title: string | null | undefined, shortLinks: readonly SourceShortLink[], url: string | null): string {
    const link = shortLinks[0];
    const fallback = link ? (link.host ? `${link.host}/${link.shortCode}` : link.shortCode) : (url ?? '');
    const name = (title ?? '').trim() || fallback.trim() || 'Imported link';
    if ([...name].length <= MAX_NAME_LENGTH) return name;
    this.note(field, `cut to ${MAX_NAME_LENGTH} characters (was ${[...name].length})`);
    return [...name].slice(0, MAX_NAME_LENGTH).join('');
  }

  /** Tags as tag names: a name that breaks the rules, and those past 20, are left out with a note each. */
  tags(field: string, names: readonly unknown[]): string[] {
    const tags = new Map<string, string>();
    names.forEach((raw, index) => {
      const check = checkTagName(raw, `${field}[${index}]`);
      if (!check.ok)
        return this.note(`${field}[${index}]`, `${JSON.stringify(raw)} is not kept: ${check.error.message.slice(`${field}[${index}] `.length)}`);
      if (tags.has(tagKey(check.name))) return;
      if (tags.size >= MAX_TAGS_PER_CODE)
        return this.note(`${field}[${index}]`, `"${check.name}" is not kept: a code has at most ${MAX_TAGS_PER_CODE} tags`);
      tags.set(tagKey(check.name), check.name);
    });
    return [...tags.values()];
  }

  /** A date of the source (ISO 8601, or what `parse` reads), or null with a note when it cannot be read. */
  date(field: string, raw: unknown, parse: (text: string) => Date | null = parseIsoDate): Date | null {
    if (raw === null || raw === undefined || raw === '') return null;
    const date = typeof raw === 'string' ? parse(raw.trim()) : null;
    if (!date) this.note(field, `${JSON.stringify(raw)} is not a date this importer reads; not kept`);
    return date;
  }

  /** A count the source kept (visits, clicks): noted when there is one, as scans start at 0 here. */
  visits(field: string, raw: unknown): number {
    const count = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw.replace(/[\s,]/g, '')) : NaN;
    if (Number.isFinite(count) && count > 0) this.note(field, `${count} visits stay with the source; scans here start at 0`);
    return Number.isFinite(count) ? count : 0;
  }

  /**
   * The source's expiry: a future one becomes expires_at; one already past imports the link paused.
   * Returns the fields to set on the item.
   */
  expiry(field: string, raw: unknown, now: Date): Pick<ImportedItem, 'expires_at' | 'paused'> {
    const date = this.date(field, raw);
    if (!date) return {};
    if (date.getTime() > now.getTime()) return { expires_at: date.toISOString() };
    this.note(field, `${date.toISOString()} has passed: the link is imported paused`);
    return { paused: true };
  }

  /** The record's link; its short links once each (a source may list one twice). */
  link(row: number, shortLinks: SourceShortLink[], createdAt: Date | null, item: ImportedItem): ImportedLink {
    if (!item.url && this.problems.length === 0) this.problem('url', 'the record has no target URL');
    const seen = new Set<string>();
    const unique = shortLinks.filter((link) => !seen.has(`${link.host}/${link.shortCode}`) && seen.add(`${link.host}/${link.shortCode}`));
    return { row, shortLinks: unique, createdAt, item, unmapped: this.unmapped, problems: this.problems };
  }

  /** A record that is not what the source writes: it fails with this problem. */
  failed(row: number, field: string, message: string): ImportedLink {
    this.problem(field, message);
    return this.link(row, [], null, { name: '', url: '', tags: [] });
  }
}

/** ISO 8601 with a zone (as Shlink, Kutt, Dub and Bitly's v4 API write dates; Bitly's `+0000` included). */
export function parseIsoDate(text: string): Date | null {
  const normalized = text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:\d{2})?$/i.test(normalized)) return null;
  const date = new Date(/[T ]/.test(normalized) && !/(Z|[+-]\d{2}:\d{2})$/i.test(normalized) ? `${normalized.replace(' ', 'T')}Z` : normalized);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A short link from its URL (`https://brand.example/spring`, or `brand.example/spring` as Bitly's
 * ids are written); null when it is not a URL with a path. `ownedHosts`: the source's own domains.
 */
export function shortLinkOf(url: string | null | undefined, ownedHosts: readonly string[] = []): SourceShortLink | null {
  if (!url) return null;
  try {
    const parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`);
    const shortCode = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    const host = parsed.hostname.toLowerCase();
    return shortCode ? { host, shortCode, movable: !ownedHosts.includes(host) } : null;
  } catch {
    return null;
  }
}

/** A CSV row that could not be read (its cells do not match the header): it fails on its own. */
export function unreadRow(row: { row: number; problem?: FieldError }): ImportedLink {
  return { row: row.row, shortLinks: [], createdAt: null, item: { name: '', url: '', tags: [] }, unmapped: [], problems: [row.problem!] };
}

/** A JSON body's list of records: the array itself, or the array under one of `paths` (`shortUrls.data`). */
export function recordsOf(json: unknown, paths: readonly string[]): unknown[] | null {
  if (Array.isArray(json)) return json as unknown[];
  for (const path of paths) {
    let node: unknown = json;
    for (const key of path.split('.')) node = isRecord(node) ? node[key] : undefined;
    if (Array.isArray(node)) return node as unknown[];
    if (isRecord(node)) return Object.values(node);
  }
  return null;
}

export const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A string field of a JSON record (numbers as text), or null. */
export function text(record: Record<string, unknown>, key: string): string | null {
  const value = record[key];
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}
