import type { CsvFile } from '../csv-file';
import { type ImportedLink, isRecord, LinkMapping, parseIsoDate, recordsOf, shortLinkOf, type SourceRead, text, unreadRow } from './imported-link';
import { SourceColumns } from './source-columns';

/**
 * YOURLS (docs/migrating.md#yourls): its `yourls_url` table as CSV with a header row
 * (`keyword,url,title,timestamp,ip,clicks`, as phpMyAdmin or `mysql` exports it) and the JSON of its
 * API's `stats` action (`{links: {link_1: {shorturl, url, title, timestamp, ip, clicks}, …}, stats}`).
 * `timestamp` is MySQL's `YYYY-MM-DD HH:MM:SS`, read as UTC. YOURLS is self-hosted: its domain is
 * the customer's. The table does not name the domain: give `domain` to place the codes on it.
 */

/** MySQL's DATETIME text, or ISO 8601. */
const mysqlDate = (value: string) => parseIsoDate(value.replace(' ', 'T'));

interface YourlsFields {
  keyword: string | null;
  shortUrl: string | null;
  url: string | null;
  title: string | null;
  timestamp: unknown;
  ip: string | null;
  clicks: unknown;
}

function mapLink(row: number, fields: YourlsFields, mapping: LinkMapping): ImportedLink {
  const link = shortLinkOf(fields.shortUrl) ?? (fields.keyword ? { host: null, shortCode: fields.keyword, movable: true } : null);
  if (fields.ip) mapping.note('ip', 'the address the link was made from is not kept (no IP address is stored here)');
  mapping.visits('clicks', fields.clicks);
  const links = link ? [link] : [];
  return mapping.link(row, links, mapping.date('timestamp', fields.timestamp, mysqlDate), {
    name: mapping.name('title', fields.title, links, fields.url),
    url: fields.url ?? '',
    tags: [],
  });
}

const CSV_COLUMNS = { keyword: ['keyword'], url: ['url'], title: ['title'], timestamp: ['timestamp'], ip: ['ip'], clicks: ['clicks'] } as const;

export function readYourlsCsv(file: CsvFile): SourceRead {
  const columns = new SourceColumns(file.header, CSV_COLUMNS);
  if (!columns.has('url') || !columns.has('keyword')) {
    return {
      ok: false,
      errors: [{ field: 'columns', message: 'a YOURLS CSV is the yourls_url table with its header row: keyword,url,title,timestamp,ip,clicks' }],
    };
  }
  return {
    ok: true,
    links: file.rows.map((row) => {
      if (row.problem) return unreadRow(row);
      const mapping = new LinkMapping();
      for (const [column, value] of columns.unknownCells(row)) mapping.note(column, `"${value.slice(0, 200)}" is not imported (no counterpart here)`);
      const fields: YourlsFields = {
        keyword: columns.cell(row, 'keyword'),
        shortUrl: null,
        url: columns.cell(row, 'url'),
        title: columns.cell(row, 'title'),
        timestamp: columns.cell(row, 'timestamp'),
        ip: columns.cell(row, 'ip'),
        clicks: columns.cell(row, 'clicks'),
      };
      return mapLink(row.row, fields, mapping);
    }),
  };
}

export function readYourlsJson(json: unknown): SourceRead {
  const records = recordsOf(json, ['links']);
  if (!records)
    return {
      ok: false,
      errors: [{ field: 'body', message: 'a YOURLS file is the stats action\'s answer ({"links": {"link_1": {...}}}) or an array of links' }],
    };
  return {
    ok: true,
    links: records.map((record, index) => {
      const mapping = new LinkMapping();
      if (!isRecord(record)) return mapping.failed(index + 1, 'link', 'each link must be an object');
      const fields: YourlsFields = {
        keyword: text(record, 'keyword'),
        shortUrl: text(record, 'shorturl'),
        url: text(record, 'url'),
        title: text(record, 'title'),
        timestamp: record.timestamp,
        ip: text(record, 'ip'),
        clicks: record.clicks,
      };
      return mapLink(index + 1, fields, mapping);
    }),
  };
}
