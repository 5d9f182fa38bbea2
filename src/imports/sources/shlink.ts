import type { LinkRule } from '../../smart-links/settings/link-settings';
import type { CsvFile } from '../csv-file';
import {
  type ImportedItem,
  type ImportedLink,
  isRecord,
  LinkMapping,
  recordsOf,
  shortLinkOf,
  type SourceRead,
  text,
  unreadRow,
} from './imported-link';
import { listCell, SourceColumns } from './source-columns';

/**
 * Shlink (docs/migrating.md#shlink): its web client's CSV export
 * (`createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits`, tags separated by `|`) and the
 * JSON of its REST API's list (`GET /rest/v3/short-urls`: `{shortUrls: {data: [shortUrl],
 * pagination}}`). A short URL: `shortCode`, `shortUrl`, `longUrl`, `deviceLongUrls` {android, ios,
 * desktop}, `dateCreated`, `tags`, `meta` {validSince, validUntil, maxVisits}, `domain` (null: the
 * default one), `title`, `crawlable`, `forwardQuery`, `visitsSummary` {total, nonBots, bots}
 * (`visitsCount` before 3.4), `hasRedirectRules` (4.0). Shlink is self-hosted: every domain is the
 * customer's, so every short code can keep its address.
 */

/** Device redirects as rules: Android and iOS by operating system, desktop by device. */
function deviceRules(devices: Record<string, unknown>, mapping: LinkMapping): LinkRule[] {
  const rules: LinkRule[] = [];
  for (const [device, url] of Object.entries(devices)) {
    if (typeof url !== 'string' || url.trim() === '') continue;
    if (device === 'android' || device === 'ios') rules.push({ name: `${device} (Shlink)`, conditions: { os: [device] }, target: url.trim() });
    else if (device === 'desktop') rules.push({ name: 'desktop (Shlink)', conditions: { device: ['desktop'] }, target: url.trim() });
    else mapping.note(`deviceLongUrls.${device}`, 'no such device here; not imported');
  }
  return rules;
}

/** maxVisits counts from the link's first visit; scans here start at 0, so the limit is what was left. */
function scanLimit(maxVisits: unknown, visits: number, mapping: LinkMapping): Pick<ImportedItem, 'max_scans' | 'paused'> {
  if (typeof maxVisits !== 'number' || !Number.isInteger(maxVisits) || maxVisits < 1) return {};
  const left = maxVisits - visits;
  if (left < 1) {
    mapping.note('meta.maxVisits', `${maxVisits} visits were all used: the link is imported paused`);
    return { paused: true };
  }
  if (visits > 0) mapping.note('meta.maxVisits', `${maxVisits} with ${visits} visits so far: max_scans ${left}`);
  return { max_scans: left };
}

function fromJson(record: unknown, row: number, now: Date): ImportedLink {
  const mapping = new LinkMapping();
  if (!isRecord(record)) return mapping.failed(row, 'shortUrl', 'each item must be a short URL object');
  const shortCode = text(record, 'shortCode');
  const link = shortLinkOf(text(record, 'shortUrl')) ?? (shortCode ? { host: text(record, 'domain'), shortCode, movable: true } : null);
  const summary = isRecord(record.visitsSummary) ? record.visitsSummary : {};
  const visits = mapping.visits('visitsSummary.total', summary.total ?? record.visitsCount);
  const meta = isRecord(record.meta) ? record.meta : {};
  const since = mapping.date('meta.validSince', meta.validSince);
  if (since && since.getTime() > now.getTime()) mapping.note('meta.validSince', `${since.toISOString()} is ahead: the link answers at once here`);
  const expiry = mapping.expiry('meta.validUntil', meta.validUntil, now);
  const limit = scanLimit(meta.maxVisits, visits, mapping);
  if (record.crawlable === true) mapping.note('crawlable', 'short links here are never indexed by search engines');
  if (record.forwardQuery === true) mapping.note('forwardQuery', "a scan's query parameters are not passed on to the target here");
  if (record.hasRedirectRules === true) mapping.note('hasRedirectRules', 'redirect rules are not in the list; recreate them as rules');
  const rules = isRecord(record.deviceLongUrls) ? deviceRules(record.deviceLongUrls, mapping) : [];
  const links = link ? [link] : [];
  return mapping.link(row, links, mapping.date('dateCreated', record.dateCreated), {
    name: mapping.name('title', text(record, 'title'), links, text(record, 'longUrl')),
    url: text(record, 'longUrl') ?? '',
    tags: mapping.tags('tags', Array.isArray(record.tags) ? record.tags : []),
    ...expiry,
    ...limit,
    paused: expiry.paused || limit.paused || undefined,
    ...(rules.length > 0 && { rules }),
  });
}

const CSV_COLUMNS = {
  createdAt: ['createdat', 'datecreated'],
  domain: ['domain'],
  shortCode: ['shortcode'],
  shortUrl: ['shorturl'],
  longUrl: ['longurl'],
  title: ['title'],
  tags: ['tags'],
  visits: ['visits', 'visitscount'],
} as const;

function fromCsvRow(columns: SourceColumns<keyof typeof CSV_COLUMNS>, row: CsvFile['rows'][number]): ImportedLink {
  const mapping = new LinkMapping();
  for (const [column, value] of columns.unknownCells(row)) mapping.note(column, `"${value.slice(0, 200)}" is not imported (no counterpart here)`);
  mapping.visits('visits', columns.cell(row, 'visits'));
  const shortCode = columns.cell(row, 'shortCode');
  const link = shortLinkOf(columns.cell(row, 'shortUrl')) ?? (shortCode ? { host: columns.cell(row, 'domain'), shortCode, movable: true } : null);
  const links = link ? [link] : [];
  return mapping.link(row.row, links, mapping.date('createdAt', columns.cell(row, 'createdAt')), {
    name: mapping.name('title', columns.cell(row, 'title'), links, columns.cell(row, 'longUrl')),
    url: columns.cell(row, 'longUrl') ?? '',
    tags: mapping.tags('tags', listCell(columns.cell(row, 'tags'))),
  });
}

export function readShlinkJson(json: unknown, now: Date): SourceRead {
  const records = recordsOf(json, ['shortUrls.data', 'data']);
  if (!records)
    return {
      ok: false,
      errors: [{ field: 'body', message: 'a Shlink file is the short-urls list ({"shortUrls": {"data": [...]}}) or an array of short URLs' }],
    };
  return { ok: true, links: records.map((record, index) => fromJson(record, index + 1, now)) };
}

export function readShlinkCsv(file: CsvFile): SourceRead {
  const columns = new SourceColumns(file.header, CSV_COLUMNS);
  if (!columns.has('longUrl')) return { ok: false, errors: [{ field: 'columns.longUrl', message: 'a Shlink CSV needs a longUrl column' }] };
  return { ok: true, links: file.rows.map((row) => (row.problem ? unreadRow(row) : fromCsvRow(columns, row))) };
}
