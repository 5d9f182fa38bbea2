import 'reflect-metadata';
import type { FieldError } from '../../common/validation/field-error';
import { CONTENT_DTO_BY_TYPE } from '../content';
import { declaredFieldsOf } from '../content/declared-fields';
import type { QrCodeRecord } from '../qr-code.record';

/**
 * The CSV form of a QR code (docs/exports-and-imports.md#csv-columns): the columns the import
 * reads and the list export writes, derived here alone from the create request's fields and the
 * content types' DTOs, so that a new content field becomes a column of both at once.
 */

type DtoClass = new () => object;
type CellKind = 'string' | 'number' | 'boolean';

/** One content column: `content.<field>` (`content.address.city` for a nested field) and how its cells read. */
interface ContentColumn {
  name: string;
  path: string[];
  /** Per type declaring the field: how its cells are read. */
  kinds: Map<string, CellKind>;
}

function contentColumnsOf(): ContentColumn[] {
  const columns = new Map<string, ContentColumn>();
  const walk = (type: string, dto: DtoClass, path: string[]) => {
    for (const [field, nested] of declaredFieldsOf(dto)) {
      if (nested) {
        walk(type, nested, [...path, field]);
        continue;
      }
      const design = Reflect.getMetadata('design:type', dto.prototype as object, field) as unknown;
      const kind: CellKind = design === Number ? 'number' : design === Boolean ? 'boolean' : 'string';
      const name = ['content', ...path, field].join('.');
      const column = columns.get(name) ?? { name, path: [...path, field], kinds: new Map() };
      column.kinds.set(type, kind);
      columns.set(name, column);
    }
  };
  for (const [type, dto] of Object.entries(CONTENT_DTO_BY_TYPE)) walk(type, dto, []);
  return [...columns.values()];
}

const CONTENT_COLUMNS = contentColumnsOf();

/**
 * The code's own columns, before its content's: the create request's fields, the smart-link ones
 * included (docs/smart-links.md). A link's password is not among them: only its hash is kept.
 */
const CODE_COLUMNS = [
  'type',
  'name',
  'is_dynamic',
  'folder_id',
  'folder_name',
  'short_code',
  'style',
  'domain_id',
  'expires_at',
  'rules',
  'max_scans',
  'fallback_url',
  'utm',
  'tags',
] as const;

/** Every column, in the order the export writes them. */
export const QR_CODE_CSV_COLUMNS: readonly string[] = [...CODE_COLUMNS, ...CONTENT_COLUMNS.map((column) => column.name)];
const KNOWN_COLUMNS = new Set(QR_CODE_CSV_COLUMNS);

/** Header cells the import does not know (each one refuses the file, naming it). */
export function unknownColumns(header: readonly string[]): string[] {
  return header.filter((name) => !KNOWN_COLUMNS.has(name));
}

/** Header cells present more than once. */
export function repeatedColumns(header: readonly string[]): string[] {
  return [...new Set(header.filter((name, index) => header.indexOf(name) !== index))];
}

/** One CSV row read as a create item (the single-create request shape), with the cells that could not be read. */
export interface CsvItem {
  item: Record<string, unknown>;
  /** The folder named by name, for the import to resolve among the account's folders. */
  folderName?: string;
  errors: FieldError[];
}

/** Reads a row (cells by header name) as a create item. Empty cells are left out, as fields not sent. */
export function itemFromCsvRow(cells: ReadonlyMap<string, string>): CsvItem {
  const item: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  const cell: Cell = (name) => {
    const value = cells.get(name);
    return value === undefined || value === '' ? undefined : value;
  };
  const type = cell('type');
  if (type !== undefined) item.type = type;
  const name = cell('name');
  if (name !== undefined) item.name = name;
  const isDynamic = cell('is_dynamic');
  if (isDynamic !== undefined) {
    const flag = readBoolean(isDynamic);
    if (flag === undefined) errors.push({ field: 'is_dynamic', message: 'is_dynamic must be true or false' });
    else item.is_dynamic = flag;
  }
  const folderId = cell('folder_id');
  const folderName = cell('folder_name');
  if (folderId !== undefined && folderName !== undefined) {
    errors.push({ field: 'folder_name', message: 'give folder_id or folder_name, not both' });
  } else if (folderId !== undefined) item.folder_id = folderId;
  const shortCode = cell('short_code');
  if (shortCode !== undefined && !/^[0-9A-Za-z]{1,64}$/.test(shortCode)) {
    errors.push({ field: 'short_code', message: 'short_code must be letters and digits' });
  }
  readStructuredCells(cell, item, errors);
  // Text fields as they are: the create rules check them (a domain of yours, a date in the future, a safe URL).
  for (const field of ['domain_id', 'expires_at', 'fallback_url'] as const) {
    const text = cell(field);
    if (text !== undefined) item[field] = text;
  }
  // Names separated by "|" (a tag name holds none): checked by the create rules as a request's list is.
  const tags = cell('tags');
  if (tags !== undefined) item.tags = tags.split('|');
  item.content = contentOf(cell, type, errors);
  return { item, ...(folderName !== undefined && { folderName }), errors };
}

/** A cell by column name; undefined when empty or absent. */
type Cell = (name: string) => string | undefined;

/** The cells holding JSON (style, utm, rules) and numbers (max_scans), read into `item`. */
function readStructuredCells(cell: Cell, item: Record<string, unknown>, errors: FieldError[]): void {
  for (const field of ['style', 'utm'] as const) {
    const text = cell(field);
    if (text === undefined) continue;
    const parsed = readJson(text);
    if (!isPlainObject(parsed)) errors.push({ field, message: `${field} must be a JSON object` });
    else item[field] = parsed;
  }
  const rules = cell('rules');
  if (rules !== undefined) {
    const parsed = readJson(rules);
    if (!Array.isArray(parsed)) errors.push({ field: 'rules', message: 'rules must be a JSON array of rules' });
    else item.rules = parsed;
  }
  const maxScans = cell('max_scans');
  if (maxScans !== undefined) {
    const number = readNumber(maxScans);
    if (number === undefined) errors.push({ field: 'max_scans', message: 'max_scans must be a number' });
    else item.max_scans = number;
  }
}

/** The content fields of the code's type from their columns (CONTENT_COLUMNS), typed as the type's fields are. */
function contentOf(cell: Cell, type: string | undefined, errors: FieldError[]): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const column of CONTENT_COLUMNS) {
    const value = cell(column.name);
    if (value === undefined) continue;
    // A field of another type is passed on as text: the content check names it as not allowed.
    const kind = (type !== undefined && column.kinds.get(type)) || 'string';
    const read = kind === 'number' ? readNumber(value) : kind === 'boolean' ? readBoolean(value) : value;
    if (read === undefined) {
      errors.push({ field: column.name, message: `${column.name} must be ${kind === 'number' ? 'a number' : 'true or false'}` });
      continue;
    }
    setPath(content, column.path, read);
  }
  return content;
}

/** The code's cells, in QR_CODE_CSV_COLUMNS order. The folder is named (`folderName`), so the file imports into another account. */
export function csvRowOf(code: QrCodeRecord, folderName: string | null): string[] {
  const own: Record<(typeof CODE_COLUMNS)[number], string> = {
    type: code.type,
    name: code.name,
    is_dynamic: String(code.isDynamic),
    folder_id: '',
    folder_name: folderName ?? '',
    short_code: code.shortCode ?? '',
    style: code.style && Object.keys(code.style).length > 0 ? JSON.stringify(code.style) : '',
    domain_id: code.domainId ?? '',
    expires_at: code.expiresAt?.toISOString() ?? '',
    rules: code.rules.length > 0 ? JSON.stringify(code.rules) : '',
    max_scans: code.maxScans === null ? '' : String(code.maxScans),
    fallback_url: code.fallbackUrl ?? '',
    utm: code.utm && Object.keys(code.utm).length > 0 ? JSON.stringify(code.utm) : '',
    tags: code.tags.join('|'),
  };
  return [
    ...CODE_COLUMNS.map((name) => own[name]),
    ...CONTENT_COLUMNS.map((column) => {
      const value = readPath(code.content, column.path);
      if (value === undefined || value === null) return '';
      return typeof value === 'string' ? value : JSON.stringify(value);
    }),
  ];
}

/** One CSV line (RFC 4180, CRLF): cells with a delimiter, quote, line break or edge space are quoted. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map((cell) => (/[",;\r\n]|^\s|\s$/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',')}\r\n`;
}

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return
 * first) gets a leading `'`, which spreadsheets show as text (OWASP's advice for CSV injection).
 * The referrer, os, browser and city come from what a visitor's request said, so any of them can
 * be `=HYPERLINK(...)`. The scan CSV and the report CSV are read by people, never imported back, so
 * nothing depends on the cell's exact bytes (the import format is written as it is, to import back).
 */
export function spreadsheetSafe(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

function readBoolean(value: string): boolean | undefined {
  const lowered = value.trim().toLowerCase();
  return lowered === 'true' ? true : lowered === 'false' ? false : undefined;
}

function readNumber(value: string): number | undefined {
  const number = Number(value.trim());
  return value.trim() !== '' && Number.isFinite(number) ? number : undefined;
}

/** A JSON cell, or undefined when it is not JSON. As the JSON body parser: keys that would reach an object's prototype are refused. */
function readJson(value: string): unknown {
  try {
    return JSON.parse(value, (key, item: unknown) => {
      if (key === '__proto__' || key === 'constructor') throw new Error(`forbidden key ${key}`);
      return item;
    });
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[path[path.length - 1]] = value;
}

function readPath(source: Record<string, unknown>, path: string[]): unknown {
  let node: unknown = source;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}
