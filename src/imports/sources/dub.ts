import { COUNTRY_CODES } from '../../smart-links/settings/country-codes';
import {
  type LinkRule,
  MAX_RULES,
  MAX_SPLIT_ARMS,
  MIN_SPLIT_ARMS,
  PASSWORD_LENGTH,
  UTM_FIELDS,
  type Utm,
} from '../../smart-links/settings/link-settings';
import type { CsvFile } from '../csv-file';
import { type ImportedItem, type ImportedLink, isRecord, LinkMapping, recordsOf, type SourceRead, text, unreadRow } from './imported-link';
import { listCell, SourceColumns, yesCell } from './source-columns';

/**
 * Dub (docs/migrating.md#dub): its dashboard's CSV export (columns "Short link", "Destination URL",
 * "Clicks", "Created at" by default; "Link ID", "Updated at", "Tags" (", " between tags),
 * "Archived" (Yes/No), "Leads", "Conversions", "Revenue" when chosen), and the JSON of its API's
 * link list (`GET /links`: an array of links with `domain`, `key`, `url`, `title`, `tags`
 * [{name}], `createdAt`, `expiresAt`, `expiredUrl`, `password`, `ios`, `android`, `geo`
 * {country: url}, `utm_*`, `testVariants`, `archived`, `disabledAt`, `clicks`, …). Only the JSON
 * carries the extras (geo targets, device targets, expiry, password). Dub's own domains (dub.sh and
 * its other shared ones) cannot move; a workspace's custom domain can. Dub's export writes a `'`
 * before a cell starting with = + - @ (against spreadsheet formulas): it is taken off.
 */

export const DUB_OWNED_HOSTS: readonly string[] = [
  'dub.sh',
  'dub.link',
  'dub.co',
  'chatg.pt',
  'spti.fi',
  'git.new',
  'cal.link',
  'amzn.id',
  'ggl.link',
  'fig.page',
];

/** Fields mapped below, and Dub's plumbing (ids, derived URLs, bookkeeping). */
const READ = new Set([
  'domain',
  'key',
  'url',
  'title',
  'tags',
  'createdAt',
  'expiresAt',
  'password',
  'ios',
  'android',
  'geo',
  'testVariants',
  'archived',
  'disabledAt',
  'clicks',
  ...UTM_FIELDS.map((field) => `utm_${field}`),
]);
const PLUMBING = new Set([
  'id',
  'shortLink',
  'qrCode',
  'userId',
  'workspaceId',
  'projectId',
  'updatedAt',
  'lastClicked',
  'tagId',
  'identifier',
  'user',
  'testStartedAt',
  'testCompletedAt',
]);

const unformula = (value: string | null) => (value && /^'[=+\-@\t\r\n]/.test(value) ? value.slice(1) : value);

/** Dub answers iOS, then Android, then the visitor's country: the rules keep that order. */
function targetingRules(record: Record<string, unknown>, mapping: LinkMapping): LinkRule[] {
  const rules: LinkRule[] = [];
  for (const os of ['ios', 'android'] as const) {
    const url = text(record, os);
    if (url) rules.push({ name: `${os} (Dub)`, conditions: { os: [os] }, target: url });
  }
  const geo = isRecord(record.geo) ? Object.entries(record.geo).sort(([a], [b]) => a.localeCompare(b)) : [];
  for (const [country, url] of geo) {
    if (typeof url !== 'string' || !COUNTRY_CODES.has(country.toUpperCase()))
      mapping.note(`geo.${country}`, 'not a country code and URL; not imported');
    else if (rules.length >= MAX_RULES) mapping.note(`geo.${country}`, `not imported: a code has at most ${MAX_RULES} rules`);
    else rules.push({ name: `${country.toUpperCase()} (Dub)`, conditions: { country: [country.toUpperCase()] }, target: url });
  }
  const variants = Array.isArray(record.testVariants) ? record.testVariants.filter(isRecord) : [];
  if (variants.length >= MIN_SPLIT_ARMS && variants.length <= MAX_SPLIT_ARMS && rules.length < MAX_RULES) {
    const arms = variants.map((variant) => ({ url: text(variant, 'url') ?? '', weight: Math.max(1, Math.round(Number(variant.percentage) || 1)) }));
    rules.push({ name: 'A/B test (Dub)', conditions: {}, target: { split: arms } });
  } else if (variants.length > 0)
    mapping.note('testVariants', `${variants.length} variants cannot be a split here (${MIN_SPLIT_ARMS} to ${MAX_SPLIT_ARMS} arms)`);
  return rules;
}

/** Dub's UTM fields, those the URL does not already carry (Dub writes them into the URL too). */
function utmOf(record: Record<string, unknown>, url: string): Utm | undefined {
  let present: URLSearchParams;
  try {
    present = new URL(url).searchParams;
  } catch {
    present = new URLSearchParams();
  }
  const utm: Utm = {};
  for (const field of UTM_FIELDS) {
    const value = text(record, `utm_${field}`);
    if (value && !present.has(`utm_${field}`)) utm[field] = value;
  }
  return Object.keys(utm).length > 0 ? utm : undefined;
}

function extras(record: Record<string, unknown>, url: string, now: Date, mapping: LinkMapping): Partial<ImportedItem> {
  const expiry = mapping.expiry('expiresAt', record.expiresAt, now);
  const password = text(record, 'password');
  const passwordFits = password !== null && password.length >= PASSWORD_LENGTH.min && password.length <= PASSWORD_LENGTH.max;
  if (password !== null && !passwordFits)
    mapping.note('password', `not kept: a password here has ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`);
  if (record.archived === true) mapping.note('archived', 'the link is archived at Dub; it is imported active');
  const disabled = record.disabledAt !== null && record.disabledAt !== undefined;
  if (disabled) mapping.note('disabledAt', 'the link was disabled at Dub: it is imported paused');
  const rules = targetingRules(record, mapping);
  const utm = utmOf(record, url);
  return {
    ...expiry,
    paused: expiry.paused || disabled || undefined,
    ...(passwordFits && { password }),
    ...(rules.length > 0 && { rules }),
    ...(utm && { utm }),
  };
}

function fromJson(record: unknown, row: number, now: Date): ImportedLink {
  const mapping = new LinkMapping();
  if (!isRecord(record)) return mapping.failed(row, 'link', 'each item must be a Dub link object');
  for (const [field, value] of Object.entries(record)) {
    if (READ.has(field) || PLUMBING.has(field) || value === null || value === false || value === 0 || (Array.isArray(value) && value.length === 0))
      continue;
    mapping.note(field, `${JSON.stringify(value).slice(0, 200)} is not imported (no counterpart here)`);
  }
  mapping.visits('clicks', record.clicks);
  const host = text(record, 'domain')?.toLowerCase() ?? null;
  const key = text(record, 'key');
  const link = key && key !== '_root' ? [{ host, shortCode: key, movable: !host || !DUB_OWNED_HOSTS.includes(host) }] : [];
  if (key === '_root') mapping.note('key', "the domain's root link is not a code here: give the domain a root_redirect_url instead");
  const url = text(record, 'url') ?? '';
  const tags: unknown[] = Array.isArray(record.tags) ? (record.tags as unknown[]).map((tag) => (isRecord(tag) ? tag.name : tag)) : [];
  return mapping.link(row, link, mapping.date('createdAt', record.createdAt), {
    name: mapping.name('title', text(record, 'title'), link, url),
    url,
    tags: mapping.tags('tags', tags),
    ...extras(record, url, now, mapping),
  });
}

const CSV_COLUMNS = {
  shortLink: ['shortlink', 'link'],
  url: ['destinationurl', 'url'],
  clicks: ['clicks'],
  createdAt: ['createdat'],
  tags: ['tags'],
  archived: ['archived'],
  linkId: ['linkid'],
  updatedAt: ['updatedat'],
} as const;

function fromCsvRow(columns: SourceColumns<keyof typeof CSV_COLUMNS>, row: CsvFile['rows'][number]): ImportedLink {
  const mapping = new LinkMapping();
  const cell = (name: keyof typeof CSV_COLUMNS) => unformula(columns.cell(row, name));
  for (const [column, value] of columns.unknownCells(row)) {
    if (Number(value) !== 0) mapping.note(column, `"${value.slice(0, 200)}" is not imported (no counterpart here)`);
  }
  mapping.visits('Clicks', cell('clicks'));
  if (yesCell(cell('archived'))) mapping.note('Archived', 'the link is archived at Dub; it is imported active');
  const shortLink = cell('shortLink');
  let link: ImportedLink['shortLinks'] = [];
  try {
    const parsed = new URL(/^https?:\/\//i.test(shortLink ?? '') ? shortLink! : `https://${shortLink}`);
    const host = parsed.hostname.toLowerCase();
    const key = decodeURIComponent(parsed.pathname.slice(1));
    link = key ? [{ host, shortCode: key, movable: !DUB_OWNED_HOSTS.includes(host) }] : [];
  } catch {
    if (shortLink) mapping.note('Short link', `"${shortLink}" is not a URL; the code gets a new short link`);
  }
  return mapping.link(row.row, link, mapping.date('Created at', cell('createdAt')), {
    name: mapping.name('Short link', null, link, cell('url')),
    url: cell('url') ?? '',
    tags: mapping.tags('Tags', listCell(cell('tags'))),
  });
}

export function readDubJson(json: unknown, now: Date): SourceRead {
  const records = recordsOf(json, ['links', 'data']);
  if (!records) return { ok: false, errors: [{ field: 'body', message: 'a Dub file is the links list: an array of links' }] };
  return { ok: true, links: records.map((record, index) => fromJson(record, index + 1, now)) };
}

export function readDubCsv(file: CsvFile): SourceRead {
  const columns = new SourceColumns(file.header, CSV_COLUMNS);
  if (!columns.has('url') || !columns.has('shortLink')) {
    return { ok: false, errors: [{ field: 'columns', message: 'a Dub CSV needs its "Short link" and "Destination URL" columns' }] };
  }
  return { ok: true, links: file.rows.map((row) => (row.problem ? unreadRow(row) : fromCsvRow(columns, row))) };
}
