/** How many entries of an Accept-Language header are read: real browsers send a handful. */
const MAX_ENTRIES = 20;

/**
 * The languages a visitor accepts, most preferred first (RFC 9110 §12.5.4): tags with q > 0 in
 * descending quality, equal qualities in header order; `*` and malformed entries are skipped.
 * Lower-cased.
 */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  const entries: Array<{ tag: string; q: number; order: number }> = [];
  const parts = header.split(',', MAX_ENTRIES);
  for (let order = 0; order < parts.length; order++) {
    const [rawTag, ...params] = parts[order].split(';');
    const tag = rawTag.trim().toLowerCase();
    if (!/^[a-z]{1,8}(-[a-z0-9]{1,8})*$/.test(tag)) continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (match) q = Math.min(1, Number(match[1]));
    }
    if (q > 0) entries.push({ tag, q, order });
  }
  return entries.sort((a, b) => b.q - a.q || a.order - b.order).map((entry) => entry.tag);
}

/** RFC 4647 basic filtering: `de` matches `de` and `de-at`, `de-at` matches `de-at` only (both lower case). */
export function rangeMatches(range: string, tag: string): boolean {
  return tag === range || (tag.startsWith(range) && tag.charCodeAt(range.length) === 45) /* - */;
}

/**
 * Whether the visitor's most preferred language (the first of `acceptedLanguages`) falls in one of
 * `ranges`: a rule for German is for visitors who would rather read German than anything else
 * they accept (docs/smart-links.md#language).
 */
export function preferredLanguageIn(accepted: readonly string[], ranges: readonly string[]): boolean {
  const preferred = accepted[0];
  return preferred !== undefined && ranges.some((range) => rangeMatches(range, preferred));
}
