/**
 * The query string as the API reads it: WHATWG form decoding (`+` is a space, percent-escapes are
 * UTF-8), where a sequence that is not valid UTF-8 becomes U+FFFD instead of staying raw text, so a
 * hostile encoding such as `%ED%A0%80%00` reaches validation decoded (and its NUL is refused there)
 * rather than slipping past it as literal percent signs. A repeated parameter gives an array.
 */
export function parseQueryString(query: string): Record<string, string | string[]> {
  const parsed: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of new URLSearchParams(query)) {
    const seen = parsed[key];
    if (seen === undefined) parsed[key] = value;
    else parsed[key] = Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return parsed;
}
