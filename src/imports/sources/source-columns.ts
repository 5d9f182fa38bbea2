import type { CsvFile } from '../csv-file';

/** A header cell compared as sources write it: without case, spaces, `_` or `-` ("Long URL", "long_url", "longUrl"). */
export const columnKey = (header: string) => header.toLowerCase().replace(/[\s_-]+/g, '');

/**
 * A source's CSV columns by the importer's own names: each name with the header spellings it is
 * known by (column keys), the first present winning. Columns the importer does not know are
 * `unknown`: their non-empty cells are noted per row, never dropped silently.
 */
export class SourceColumns<Name extends string> {
  private readonly byName = new Map<Name, string>();
  readonly unknown: string[] = [];

  constructor(header: readonly string[], spellings: Record<Name, readonly string[]>) {
    const known = new Set<string>();
    for (const [name, keys] of Object.entries(spellings) as Array<[Name, readonly string[]]>) {
      const cell = keys.map((key) => header.find((candidate) => columnKey(candidate) === key)).find((found) => found !== undefined);
      if (cell !== undefined) {
        this.byName.set(name, cell);
        known.add(cell);
      }
    }
    this.unknown = header.filter((cell) => !known.has(cell) && cell !== '');
  }

  has(name: Name): boolean {
    return this.byName.has(name);
  }

  /** The row's cell of that column, trimmed; null when the column is absent or the cell empty. */
  cell(row: CsvFile['rows'][number], name: Name): string | null {
    const column = this.byName.get(name);
    const value = column === undefined ? undefined : row.cells.get(column)?.trim();
    return value ? value : null;
  }

  /** The row's non-empty cells of columns the importer does not know. */
  unknownCells(row: CsvFile['rows'][number]): Array<[string, string]> {
    return this.unknown.flatMap((column) => {
      const value = row.cells.get(column)?.trim();
      return value ? [[column, value] as [string, string]] : [];
    });
  }
}

/** A list in one cell: split at `|` when it has one, else at `,` (Shlink's export writes `|`, Dub's `, `). */
export function listCell(value: string | null): string[] {
  if (!value) return [];
  return value
    .split(value.includes('|') ? '|' : ',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** "yes", "true" and "1" (any case) are true. */
export const yesCell = (value: string | null) => value !== null && ['yes', 'true', '1'].includes(value.toLowerCase());
