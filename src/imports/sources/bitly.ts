import type { CsvFile } from '../csv-file';
import { type ImportedLink, isRecord, LinkMapping, recordsOf, shortLinkOf, type SourceRead, text, unreadRow } from './imported-link';
import { listCell, SourceColumns, yesCell } from './source-columns';

/**
 * Bitly (docs/migrating.md#bitly): the JSON of its v4 API's bitlink list
 * (`GET /v4/groups/{group_guid}/bitlinks`: `{links: [bitlink], pagination}`; a bare array of
 * bitlinks too) and a CSV of the same fields. A bitlink: `id` ("bit.ly/3abc"), `link`
 * ("https://bit.ly/3abc"), `custom_bitlinks` (its links on branded domains), `long_url`, `title`,
 * `created_at` ("2021-03-01T10:00:00+0000"), `tags`, `archived`, `deeplinks`, `campaign_ids`.
 * Bitly's own domains cannot move with the links (Bitly owns them): links on them get new short
 * links here; a custom bitlink on the customer's domain keeps its short code.
 */

/** Hosts Bitly owns: a short link on one of them cannot keep its address anywhere else. */
export const BITLY_OWNED_HOSTS: readonly string[] = ['bit.ly', 'j.mp', 'bitly.is', 'bitly.com'];

/** The fields mapped, and Bitly's API plumbing (not the link's data: who called, which ids). */
const READ = new Set(['long_url', 'title', 'created_at', 'tags', 'archived', 'custom_bitlinks', 'id', 'link']);
const PLUMBING = new Set(['references', 'client_id', 'created_by', 'group_guid', 'modified_at', 'is_deleted']);

interface BitlinkFields {
  links: string[];
  longUrl: string | null;
  title: string | null;
  createdAt: unknown;
  tags: unknown[];
  archived: boolean;
}

function mapBitlink(row: number, fields: BitlinkFields, mapping: LinkMapping): ImportedLink {
  const links = fields.links.flatMap((link) => shortLinkOf(link, BITLY_OWNED_HOSTS) ?? []);
  // A branded address first: it is the one printed, and the one that can be kept.
  const shortLinks = [...links.filter((link) => link.movable), ...links.filter((link) => !link.movable)];
  if (fields.archived) mapping.note('archived', 'the link is archived at Bitly; it is imported active');
  return mapping.link(row, shortLinks, mapping.date('created_at', fields.createdAt), {
    name: mapping.name('title', fields.title, shortLinks, fields.longUrl),
    url: fields.longUrl ?? '',
    tags: mapping.tags('tags', fields.tags),
  });
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === false ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (isRecord(value) && Object.keys(value).length === 0);

function fromJson(record: unknown, row: number): ImportedLink {
  const mapping = new LinkMapping();
  if (!isRecord(record)) return mapping.failed(row, 'bitlink', 'each item must be a bitlink object');
  for (const [field, value] of Object.entries(record)) {
    if (READ.has(field) || PLUMBING.has(field) || isEmpty(value)) continue;
    mapping.note(field, `${JSON.stringify(value).slice(0, 200)} is not imported (no counterpart here)`);
  }
  const own = text(record, 'link') ?? text(record, 'id');
  const fields: BitlinkFields = {
    links: [...strings(record.custom_bitlinks), ...(own ? [own] : [])],
    longUrl: text(record, 'long_url'),
    title: text(record, 'title'),
    createdAt: record.created_at,
    tags: Array.isArray(record.tags) ? record.tags : [],
    archived: record.archived === true,
  };
  return mapBitlink(row, fields, mapping);
}

const CSV_COLUMNS = {
  link: ['link', 'bitlink', 'shortlink', 'shorturl', 'id'],
  /** `id` beside `link` is the same link without its scheme */
  id: ['id'],
  longUrl: ['longurl', 'destinationurl', 'destination', 'originalurl', 'url'],
  title: ['title'],
  createdAt: ['createdat', 'created', 'datecreated', 'creationdate'],
  tags: ['tags'],
  custom: ['custombitlinks', 'custombitlink', 'customlinks', 'customlink'],
  archived: ['archived', 'hidden'],
  clicks: ['clicks', 'engagements', 'totalclicks', 'totalengagements'],
} as const;

function fromCsvRow(columns: SourceColumns<keyof typeof CSV_COLUMNS>, row: CsvFile['rows'][number]): ImportedLink {
  const mapping = new LinkMapping();
  for (const [column, value] of columns.unknownCells(row)) mapping.note(column, `"${value.slice(0, 200)}" is not imported (no counterpart here)`);
  mapping.visits('clicks', columns.cell(row, 'clicks'));
  const own = columns.cell(row, 'link');
  const fields: BitlinkFields = {
    links: [...listCell(columns.cell(row, 'custom')).flatMap((cell) => cell.split(/\s+/)), ...(own ? [own] : [])],
    longUrl: columns.cell(row, 'longUrl'),
    title: columns.cell(row, 'title'),
    createdAt: columns.cell(row, 'createdAt'),
    tags: listCell(columns.cell(row, 'tags')),
    archived: yesCell(columns.cell(row, 'archived')),
  };
  return mapBitlink(row.row, fields, mapping);
}

export function readBitlyJson(json: unknown): SourceRead {
  const records = recordsOf(json, ['links']);
  if (!records)
    return { ok: false, errors: [{ field: 'body', message: 'a Bitly file is the v4 bitlinks list ({"links": [...]}) or an array of bitlinks' }] };
  return { ok: true, links: records.map((record, index) => fromJson(record, index + 1)) };
}

export function readBitlyCsv(file: CsvFile): SourceRead {
  const columns = new SourceColumns(file.header, CSV_COLUMNS);
  if (!columns.has('longUrl'))
    return { ok: false, errors: [{ field: 'columns.long_url', message: 'a Bitly CSV needs a long_url column (or "Long URL")' }] };
  return { ok: true, links: file.rows.map((row) => (row.problem ? unreadRow(row) : fromCsvRow(columns, row))) };
}
