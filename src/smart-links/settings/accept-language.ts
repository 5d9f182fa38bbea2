/** How many entries of an Accept-Language header are read: real browsers send a handful. */
const MAX_ENTRIES = 20;

/**
 * The languages a visitor accepts, most preferred first (RFC 9110 §12.5.4): tags with q > 0 in
 * descending quality, equal qualities in header order; `*` and malformed entries (a bad tag or
 * quality value) are skipped. Lower-cased.
 */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  const entries: Array<{ tag: string; q: number; order: number }> = [];
  const parts = header.split(',', MAX_ENTRIES);
  for (let order = 0; order < parts.length; order++) {
    const [rawTag, ...params] = parts[order].split(';');
    const tag = rawTag.trim().toLowerCase();
    if (!/^[a-z]{1,8}(-[a-z0-9]{1,8})*$/.test(tag)) continue;
    // A weight that is not a qvalue (q=abc, q=1.5) makes the entry malformed: read as q=1 it would outrank the real preferences.
    let q: number | null = 1;
    for (const param of params) {
      if (!/^\s*q\s*=/i.test(param)) continue;
      const match = /^\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/i.exec(param);
      q = match ? Number(match[1]) : null;
      if (q === null) break;
    }
    if (q !== null && q > 0) entries.push({ tag, q, order });
  }
  return entries.sort((a, b) => b.q - a.q || a.order - b.order).map((entry) => entry.tag);
}

/** RFC 4647 basic filtering: `de` matches `de` and `de-at`, `de-at` matches `de-at` only (both lower case). */
export function rangeMatches(range: string, tag: string): boolean {
  return tag === range || (tag.startsWith(range) && tag.charCodeAt(range.length) === 45); /* - */
}

/** Headers remembered at most by preferredLanguage (then forgotten all at once): visitors send few distinct values. */
const MAX_REMEMBERED_HEADERS = 1000;
const preferredByHeader = new Map<string, string | null>();

/**
 * The visitor's most preferred language (the first of `acceptedLanguages`), or null: each distinct
 * header is parsed once, since a scan with a language rule would otherwise parse it on every visit.
 */
export function preferredLanguage(header: string | null | undefined): string | null {
  if (!header) return null;
  let preferred = preferredByHeader.get(header);
  if (preferred === undefined) {
    preferred = acceptedLanguages(header)[0] ?? null;
    if (preferredByHeader.size >= MAX_REMEMBERED_HEADERS) preferredByHeader.clear();
    preferredByHeader.set(header, preferred);
  }
  return preferred;
}

/**
 * Whether the visitor's most preferred language falls in one of `ranges`: a rule for German is for
 * visitors who would rather read German than anything else they accept (docs/smart-links.md#language).
 */
export function preferredLanguageIn(preferred: string | null, ranges: readonly string[]): boolean {
  return preferred !== null && ranges.some((range) => rangeMatches(range, preferred));
}
