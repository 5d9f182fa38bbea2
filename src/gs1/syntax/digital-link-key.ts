import { AI_BY_ALPHA, type AiFormat, DATA_ATTRIBUTE_BY_AI, PRIMARY_KEY_BY_AI, type PrimaryKey, QUALIFIER_BY_AI } from './ai-dictionary';
import { hasValidCheckDigit } from './check-digit';

/** One AI and its value (decoded). */
export interface AiValue {
  ai: string;
  value: string;
}

/** What a GS1 Digital Link path identifies: a primary key and its key qualifiers, in their order. */
export interface Gs1Key {
  primary: AiValue;
  qualifiers: readonly AiValue[];
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

/** Longer paths are no Digital Link (the longest key and qualifiers, encoded, stay far below). */
const MAX_PATH_LENGTH = 512;

/**
 * The key of a Digital Link path (`/01/09506000134352/10/LOT42`, percent-encoded as it came, a
 * trailing slash tolerated): GTIN-8/12/13 padded to 14 digits, check digits and value formats
 * checked, qualifiers only those of the key and in their fixed order.
 */
export function parseKeyPath(rawPath: string): Parsed<Gs1Key> {
  if (rawPath.length > MAX_PATH_LENGTH) return fail('The path is too long for a GS1 Digital Link URI');
  const trimmed = rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
  const segments = trimmed.split('/').slice(1);
  if (segments.length < 2 || segments.length % 2 !== 0)
    return fail('A GS1 Digital Link path is /<primary key AI>/<value>, then /<qualifier AI>/<value> pairs');
  const pairs: AiValue[] = [];
  for (let i = 0; i < segments.length; i += 2) {
    const value = decodeSegment(segments[i + 1]);
    if (value === null) return fail(`The value after /${segments[i]}/ is not valid percent-encoded UTF-8`);
    pairs.push({ ai: AI_BY_ALPHA.get(segments[i]) ?? segments[i], value });
  }
  return keyOf(pairs);
}

/** The key of AI/value pairs in path order (the first the primary key). */
export function keyOf(pairs: readonly AiValue[]): Parsed<Gs1Key> {
  const [first, ...rest] = pairs;
  const primaryKey = PRIMARY_KEY_BY_AI.get(first.ai);
  if (!primaryKey) return fail(`${first.ai} is not a GS1 primary key that a Digital Link path may start with`);
  const primary = primaryValue(primaryKey, first.value);
  if (!primary.ok) return primary;
  let lastPosition = -1;
  for (const { ai, value } of rest) {
    const position = primaryKey.qualifiers.indexOf(ai);
    if (position === -1)
      return fail(`(${ai}) is not a key qualifier of (${primaryKey.ai}) ${primaryKey.title}: it belongs in the query string, if anywhere`);
    if (position <= lastPosition)
      return fail(`Key qualifiers of (${primaryKey.ai}) come once each, in the order ${primaryKey.qualifiers.map((q) => `(${q})`).join(', ')}`);
    lastPosition = position;
    const problem = formatProblem(QUALIFIER_BY_AI.get(ai)!, value);
    if (problem) return fail(problem);
  }
  return { ok: true, value: { primary: { ai: primaryKey.ai, value: primary.value }, qualifiers: rest } };
}

function primaryValue(key: PrimaryKey, value: string): Parsed<string> {
  // GTIN-8, -12 and -13 are the same GTIN as its 14-digit form (padded with zeros on the left).
  const padded = key.ai === '01' && /^(\d{8}|\d{12}|\d{13})$/.test(value) ? value.padStart(14, '0') : value;
  const problem = formatProblem(key, padded);
  return problem ? fail(problem) : { ok: true, value: padded };
}

/** Why `value` is not a valid value of the AI, or null. */
export function formatProblem(format: AiFormat, value: string): string | null {
  const label = `(${format.ai}) ${format.title}`;
  if (!format.pattern.test(value)) return `${label}: "${value}" is not in the format of this AI`;
  if (format.checkDigitAt !== undefined && !hasValidCheckDigit(value, format.checkDigitAt)) return `${label}: the check digit of ${value} is wrong`;
  if (format.date && !isDate(value)) return `${label}: ${value} is not a date (YYMMDD)`;
  return null;
}

/** YYMMDD; DD may be 00 (the end of the month, GS1 General Specifications 7.12). */
function isDate(yymmdd: string): boolean {
  const month = Number(yymmdd.slice(2, 4));
  const day = Number(yymmdd.slice(4, 6));
  if (month < 1 || month > 12) return false;
  const daysInMonth = new Date(Date.UTC(2000 + Number(yymmdd.slice(0, 2)), month, 0)).getUTCDate();
  return day <= daysInMonth;
}

/**
 * Why a query parameter is refused, or null: a GS1 data attribute (`17=271231`) must have its
 * format; a primary key or key qualifier does not belong in the query. Other parameters pass.
 */
export function queryParameterProblem(name: string, value: string): string | null {
  const attribute = DATA_ATTRIBUTE_BY_AI.get(name);
  if (attribute) return formatProblem(attribute, value);
  if (PRIMARY_KEY_BY_AI.has(name) || QUALIFIER_BY_AI.has(name))
    return `(${name}) identifies the item: it belongs in the path, not in the query string`;
  return null;
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    // Malformed percent-encoding: the caller refuses the path.
    return null;
  }
}

/** A value percent-encoded as GS1 Digital Link writes it: only letters, digits, `-`, `.` and `_` stay. */
export function encodeValue(value: string): string {
  return value.replace(/[^A-Za-z0-9\-._]/gu, percentEncoded);
}

function percentEncoded(c: string): string {
  const encoded = encodeURIComponent(c);
  // encodeURIComponent leaves ! ~ * ' ( ) as they are; Digital Link encodes them.
  return encoded !== c ? encoded : `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
}

/** The canonical path of a key: `/01/09506000134352/10/LOT42`. */
export function keyPath(key: Gs1Key): string {
  return [key.primary, ...key.qualifiers].map(({ ai, value }) => `/${ai}/${encodeValue(value)}`).join('');
}

/** The key and each of its ancestors, most specific first: /01/G/10/L/21/S, /01/G/10/L, /01/G. */
export function keyLevels(key: Gs1Key): Gs1Key[] {
  return Array.from({ length: key.qualifiers.length + 1 }, (_, i) => ({
    primary: key.primary,
    qualifiers: key.qualifiers.slice(0, key.qualifiers.length - i),
  }));
}

/** The human-readable interpretation printed under a code: `(01) 09506000134352 (10) LOT42`. */
export function humanReadable(key: Gs1Key): string {
  return [key.primary, ...key.qualifiers].map(({ ai, value }) => `(${ai}) ${value}`).join(' ');
}

/** The key's values by AI (what href templates fill in). */
export function valuesByAi(key: Gs1Key): Map<string, string> {
  return new Map([key.primary, ...key.qualifiers].map(({ ai, value }) => [ai, value]));
}
