/**
 * What a request asks for in its `Accept-Language` and `Accept` headers, most wanted first
 * (RFC 9110 12.5: weights, q=0 refused). Ranges that state no preference (`*`, `*\/*`) are left out.
 */
export interface Weighted {
  value: string;
  q: number;
}

/** At most this many entries are read from a header: a longer one is no real client's. */
const MAX_ENTRIES = 20;

function weighted(header: string | undefined, isRange: (value: string) => boolean): string[] {
  if (!header) return [];
  const entries: Weighted[] = [];
  for (const part of header.split(',').slice(0, MAX_ENTRIES)) {
    const [rawValue, ...params] = part.split(';');
    const value = rawValue.trim().toLowerCase();
    if (!isRange(value)) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (Number.isFinite(q) && q > 0) entries.push({ value, q });
  }
  // A stable sort keeps the header's order among equal weights.
  return entries.sort((a, b) => b.q - a.q).map((entry) => entry.value);
}

const LANGUAGE_RANGE = /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/;
const MEDIA_RANGE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+*-]+$/;

/** Language tags in lower case (`en-gb`), most wanted first. */
export const acceptedLanguages = (header: string | undefined): string[] => weighted(header, (value) => LANGUAGE_RANGE.test(value));

/** Media ranges (`text/html`, `text/*`), most wanted first; `*\/*` is no preference. */
export const acceptedMediaTypes = (header: string | undefined): string[] => weighted(header, (value) => value !== '*/*' && MEDIA_RANGE.test(value));

export const LINKSET_MEDIA_TYPE = 'application/linkset+json';

/** Whether the request asks for the linkset by its `Accept` header. */
export const wantsLinksetByAccept = (header: string | undefined): boolean => acceptedMediaTypes(header).includes(LINKSET_MEDIA_TYPE);

/** Whether a link's media type is one a media range accepts. */
export function mediaTypeMatches(range: string, type: string | null): boolean {
  if (!type) return false;
  const t = type.toLowerCase();
  return range.endsWith('/*') ? t.startsWith(range.slice(0, -1)) : t === range;
}

/** Exact tag match (`en-gb` ~ `en-GB`). */
export const languageIs = (tag: string, hreflang: string): boolean => hreflang.toLowerCase() === tag;

/** Same primary language (`en-gb` ~ `en`, `en` ~ `en-US`). */
export const languageNear = (tag: string, hreflang: string): boolean => hreflang.toLowerCase().split('-')[0] === tag.split('-')[0];
