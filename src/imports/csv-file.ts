import { parse } from 'csv-parse/sync';
import type { FieldError } from '../common/validation/field-error';
import { QR_CODE_CSV_COLUMNS, repeatedColumns, unknownColumns } from '../qrcodes/csv/qr-code-csv';

export const MAX_IMPORT_ROWS = 10_000;
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

/** A CSV file read: its header and its records, each with its record number (the header is 1). */
export interface CsvFile {
  delimiter: ',' | ';';
  header: string[];
  /** A row whose number of cells is not the header's cannot be read: it fails on its own (`problem`). */
  rows: Array<{ row: number; cells: Map<string, string>; problem?: FieldError }>;
}

export type CsvFileRead = { ok: true; file: CsvFile } | { ok: false; errors: FieldError[] };

/**
 * Reads a CSV file's header and records (RFC 4180 through csv-parse: quoted cells, quotes doubled,
 * line breaks inside quotes, a UTF-8 byte order mark), cells by header name. The delimiter is `,`
 * or `;`, whichever the header line has more of outside quotes (spreadsheets in locales with a
 * decimal comma write `;`). Refuses, naming the problem, a file that is not CSV, has no header or
 * no row, or more than MAX_IMPORT_ROWS rows. The header's cells are trimmed; the caller checks them.
 */
export function readCsvRecords(text: string): CsvFileRead {
  const body = (message: string): CsvFileRead => ({ ok: false, errors: [{ field: 'body', message }] });
  if (Buffer.byteLength(text) > MAX_IMPORT_BYTES) return body(`the CSV is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB`);
  const delimiter = detectDelimiter(text);
  let records: string[][];
  try {
    // Without `columns`, csv-parse answers each record as an array of its cells.
    const parsed: unknown = parse(text, { bom: true, delimiter, relax_column_count: true, skip_empty_lines: true });
    records = parsed as string[][];
  } catch (error) {
    return body(`the CSV cannot be read: ${(error as Error).message}`);
  }
  if (records.length === 0) return body('the CSV is empty: it needs a header line and at least one row');
  const header = records[0].map((cell) => cell.trim());
  const data = records.slice(1);
  if (data.length === 0) return body('the CSV has a header but no row');
  if (data.length > MAX_IMPORT_ROWS) return body(`the CSV has more than ${MAX_IMPORT_ROWS} rows`);
  const rows: CsvFile['rows'] = data.map((cells, index) => {
    const row = index + 2;
    if (cells.length === header.length) return { row, cells: new Map(header.map((name, column) => [name, cells[column]])) };
    return { row, cells: new Map(), problem: { field: 'row', message: `the row has ${cells.length} cells; the header has ${header.length}` } };
  });
  return { ok: true, file: { delimiter, header, rows } };
}

/**
 * Reads an import's CSV in the service's own columns (docs/exports-and-imports.md#csv-columns):
 * readCsvRecords, then refuses unknown or repeated columns and a file without a type column.
 */
export function readCsvFile(text: string): CsvFileRead {
  const read = readCsvRecords(text);
  if (!read.ok) return read;
  const { header } = read.file;
  const unknown = unknownColumns(header);
  if (unknown.length > 0) {
    return {
      ok: false,
      errors: unknown.slice(0, 20).map((name) => ({
        field: `columns.${name || '(empty)'}`,
        message: `unknown column "${name}"; the columns are ${QR_CODE_CSV_COLUMNS.join(', ')}`,
      })),
    };
  }
  const repeated = repeatedColumns(header);
  if (repeated.length > 0)
    return { ok: false, errors: repeated.map((name) => ({ field: `columns.${name}`, message: `column "${name}" appears twice` })) };
  if (!header.includes('type')) return { ok: false, errors: [{ field: 'columns.type', message: 'the CSV needs a type column' }] };
  return read;
}

/** `;` when the header line has more semicolons than commas outside quotes, else `,`. */
export function detectDelimiter(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch === ',') commas++;
    else if (!quoted && ch === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}
