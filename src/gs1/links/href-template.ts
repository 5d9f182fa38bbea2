/**
 * Link targets may hold the request's GS1 values (`https://b.com/p?lot={10}&serial={21}`), so that one
 * link serves every lot and serial of a GTIN. A placeholder is an AI in braces; its value is
 * percent-encoded into the target; an AI the request does not carry becomes empty.
 */
const PLACEHOLDER = /\{(\d{2,4})\}/g;

export const hasPlaceholders = (href: string): boolean => /\{\d{2,4}\}/.test(href);

export function fillHref(href: string, values: ReadonlyMap<string, string>): string {
  if (!href.includes('{')) return href;
  return href.replace(PLACEHOLDER, (_, ai: string) => encodeURIComponent(values.get(ai) ?? ''));
}

/** The AIs a template names. */
export const placeholderAis = (href: string): string[] => [...href.matchAll(PLACEHOLDER)].map((match) => match[1]);
