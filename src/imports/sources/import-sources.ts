import type { FieldError } from '../../common/validation/field-error';
import { readCsvRecords } from '../csv-file';
import { readBitlyCsv, readBitlyJson } from './bitly';
import { readDubCsv, readDubJson } from './dub';
import type { SourceFormat, SourceRead } from './imported-link';
import { readKuttJson } from './kutt';
import { readShlinkCsv, readShlinkJson } from './shlink';
import { readYourlsCsv, readYourlsJson } from './yourls';

/** The services an import reads the files of (`POST /api/v1/imports?source=`; docs/migrating.md). */
export const IMPORT_SOURCES = ['bitly', 'shlink', 'kutt', 'yourls', 'dub'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

type Readers = Partial<Record<SourceFormat, (input: never, now: Date) => SourceRead>>;

const READERS: Record<ImportSource, Readers> = {
  bitly: { csv: readBitlyCsv, json: readBitlyJson },
  shlink: { csv: readShlinkCsv, json: readShlinkJson },
  kutt: { json: readKuttJson },
  yourls: { csv: readYourlsCsv, json: readYourlsJson },
  dub: { csv: readDubCsv, json: readDubJson },
};

/** The formats a source's files come in. */
export const sourceFormats = (source: ImportSource): SourceFormat[] => Object.keys(READERS[source]) as SourceFormat[];

/** JSON as the body parser reads it: keys that would reach an object's prototype are refused. */
function readJson(body: string): { ok: true; json: unknown } | { ok: false; errors: FieldError[] } {
  try {
    const json: unknown = JSON.parse(body, (key, value: unknown) => {
      if (key === '__proto__' || key === 'constructor') throw new Error(`the key "${key}" is not allowed`);
      return value;
    });
    return { ok: true, json };
  } catch (error) {
    return { ok: false, errors: [{ field: 'body', message: `the JSON cannot be read: ${(error as Error).message}` }] };
  }
}

/**
 * Reads a source's file into links (pure): the CSV's header and rows, or the JSON, then the source's
 * mapping. A file the source's reader cannot take at all is refused whole (`errors`, naming why);
 * a record it cannot read fails on its own (its `problems`).
 */
export function readSourceFile(source: ImportSource, format: SourceFormat, body: string, now: Date): SourceRead {
  const reader = READERS[source][format];
  if (!reader) {
    return { ok: false, errors: [{ field: 'body', message: `a ${source} import is ${sourceFormats(source).join(' or ')}, not ${format}` }] };
  }
  if (format === 'json') {
    const read = readJson(body);
    return read.ok ? (reader as (input: unknown, now: Date) => SourceRead)(read.json, now) : read;
  }
  const read = readCsvRecords(body);
  return read.ok ? (reader as (input: unknown, now: Date) => SourceRead)(read.file, now) : read;
}
