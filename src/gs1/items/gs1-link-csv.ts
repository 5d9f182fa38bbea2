import type { FieldError } from '../../common/validation/field-error';
import type { CsvFile } from '../../imports/csv-file';
import { checkPath } from './gs1-item-rules';

/** The columns of a GS1 link import: one row per link (docs/gs1-digital-link.md#csv-import). */
export const GS1_LINK_CSV_COLUMNS = ['path', 'domain_id', 'name', 'link_type', 'href', 'title', 'hreflang', 'type', 'context', 'default'] as const;
const REQUIRED = ['path', 'link_type', 'href', 'title'] as const;

/** One item of the file: its rows' links, as a create body (checked by the service like one). */
export interface ImportedItem {
  rows: number[];
  body: { path: string; domain_id?: string; name?: string; links: Array<Record<string, unknown>> };
  /** the normalised path (rows of /01/9506000134352 and /01/09506000134352 are one item); null: the path is refused */
  path: string | null;
  errors: FieldError[];
}

/** Refusals of the header: unknown or repeated columns, required ones missing (400, nothing read). */
export function headerProblems(header: readonly string[]): FieldError[] {
  const known = new Set<string>(GS1_LINK_CSV_COLUMNS);
  const problems: FieldError[] = header
    .filter((name) => !known.has(name))
    .map((name) => ({ field: `columns.${name}`, message: `unknown column "${name}"; the columns are ${GS1_LINK_CSV_COLUMNS.join(', ')}` }));
  for (const name of new Set(header.filter((name, i) => header.indexOf(name) !== i)))
    problems.push({ field: `columns.${name}`, message: `column "${name}" is repeated` });
  for (const name of REQUIRED.filter((required) => !header.includes(required)))
    problems.push({ field: `columns.${name}`, message: `the CSV needs a ${name} column` });
  return problems;
}

const list = (cell: string | undefined): string[] | undefined => {
  const items = (cell ?? '').split(/[\s,]+/).filter((item) => item.length > 0);
  return items.length > 0 ? items : undefined;
};
const text = (cell: string | undefined): string | undefined => (cell === undefined || cell.trim() === '' ? undefined : cell.trim());

/** The file's rows grouped into items by host and path, in the order they first appear. */
export function itemsOfRows(file: CsvFile): ImportedItem[] {
  const items = new Map<string, ImportedItem>();
  for (const { row, cells, problem } of file.rows) {
    const rawPath = text(cells.get('path')) ?? '';
    const checked = checkPath(rawPath);
    const path = checked.ok ? checked.value.path : null;
    const domainId = text(cells.get('domain_id'));
    const key = `${domainId ?? ''} ${path ?? `row ${row}`}`;
    let item = items.get(key);
    if (!item) items.set(key, (item = { rows: [], body: { path: rawPath, links: [] }, path, errors: [] }));
    item.rows.push(row);
    if (problem) item.errors.push({ field: `rows.${row}.${problem.field}`, message: problem.message });
    if (domainId !== undefined) item.body.domain_id = domainId;
    const name = text(cells.get('name'));
    if (name !== undefined) item.body.name ??= name;
    item.body.links.push(linkOf(cells));
  }
  return [...items.values()];
}

function linkOf(cells: ReadonlyMap<string, string>): Record<string, unknown> {
  const isDefault = text(cells.get('default'))?.toLowerCase();
  return {
    link_type: text(cells.get('link_type')),
    href: text(cells.get('href')),
    title: text(cells.get('title')),
    ...(list(cells.get('hreflang')) && { hreflang: list(cells.get('hreflang')) }),
    ...(text(cells.get('type')) && { type: text(cells.get('type')) }),
    ...(list(cells.get('context')) && { context: list(cells.get('context')) }),
    ...(isDefault !== undefined && { default: isDefault === 'true' || isDefault === '1' || isDefault === 'yes' }),
  };
}
