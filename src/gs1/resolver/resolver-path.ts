import { decompressPath, looksCompressed } from '../syntax/compression';
import { type Gs1Key, parseKeyPath, type Parsed, queryParameterProblem, valuesByAi } from '../syntax/digital-link-key';

/** A request path read as a GS1 Digital Link: its key, its query, and whether it came compressed. */
export interface ResolverPath {
  key: Gs1Key;
  /** the query string the resolver works with (a compressed URI's data attributes included) */
  query: string;
  /** the key's values and the query's data attributes, by AI (what href templates fill in) */
  values: Map<string, string>;
  /** a compressed request: its uncompressed path and query, for `Link: <…>; rel="owl:sameAs"` */
  uncompressed: string | null;
}

/** Reads the path below the resolver's root (`/01/…` or a compressed `/<base64url>`) and its raw query. */
export function readResolverPath(path: string, rawQuery: string): Parsed<ResolverPath> {
  let query = rawQuery;
  let keyPathText = path;
  let uncompressed: string | null = null;
  if (looksCompressed(path)) {
    const expanded = decompressPath(path, rawQuery);
    if (!expanded) return { ok: false, message: 'The path is neither a GS1 Digital Link path nor a compressed one' };
    ({ path: keyPathText, query } = expanded);
    uncompressed = `${expanded.path}${expanded.query ? `?${expanded.query}` : ''}`;
  }
  const key = parseKeyPath(keyPathText);
  if (!key.ok) return key;
  const values = valuesByAi(key.value);
  const problem = readQuery(query, values);
  if (problem) return { ok: false, message: problem };
  return { ok: true, value: { key: key.value, query, values, uncompressed } };
}

/** Checks the query's GS1 data attributes, adding them to `values`; returns the first problem. */
function readQuery(query: string, values: Map<string, string>): string | null {
  if (!query) return null;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const name = decode(separator === -1 ? pair : pair.slice(0, separator));
    const value = decode(separator === -1 ? '' : pair.slice(separator + 1));
    if (name === null || value === null) return 'The query string is not valid percent-encoded UTF-8';
    const problem = queryParameterProblem(name, value);
    if (problem) return problem;
    if (/^\d{2,4}$/.test(name) && !values.has(name)) values.set(name, value);
  }
  return null;
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    // Malformed percent-encoding: reported as the query's problem.
    return null;
  }
}
