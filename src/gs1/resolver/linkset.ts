import { fillHref } from '../links/href-template';
import { linkTypeUri } from '../links/link-types';
import { type Gs1Key, humanReadable } from '../syntax/digital-link-key';
import type { Gs1Link, ItemLevel } from './gs1-link';

/** The JSON-LD context of GS1 linksets, announced in a `Link` header with every linkset. */
export const LINKSET_CONTEXT = 'https://gs1.github.io/linkset/linksetContext.jsonld';

export interface LinkTarget {
  href: string;
  title: string;
  type?: string;
  hreflang?: string[];
  context?: string[];
}

export type LinksetEntry = { anchor: string; itemDescription: string } & Record<string, unknown>;

/**
 * The RFC 9264 linkset of the item levels found, most specific first: one entry per level, each
 * anchored at its own (uncompressed) URI, link relations named by their GS1 vocabulary URI, the
 * default link also under `gs1:defaultLink` (target and title only, as the standard says).
 * Templates are filled with the request's values.
 */
export function buildLinkset(
  levels: readonly ItemLevel[],
  anchorOf: (key: Gs1Key) => string,
  values: ReadonlyMap<string, string>,
): { linkset: LinksetEntry[] } {
  return { linkset: levels.map((level) => entryOf(level, anchorOf(level.key), values)) };
}

function entryOf(level: ItemLevel, anchor: string, values: ReadonlyMap<string, string>): LinksetEntry {
  const entry: LinksetEntry = { anchor, itemDescription: level.name ?? humanReadable(level.key) };
  const defaultLink = level.links.find((link) => link.isDefault);
  if (defaultLink) entry[linkTypeUri('gs1:defaultLink')] = [{ href: fillHref(defaultLink.href, values), title: defaultLink.title }];
  for (const link of level.links) {
    const relation = linkTypeUri(link.linkType);
    const targets = (entry[relation] as LinkTarget[] | undefined) ?? [];
    targets.push(targetOf(link, values));
    entry[relation] = targets;
  }
  return entry;
}

/** A link as a linkset target (and as an entry of a 300 answer). */
export function targetOf(link: Gs1Link, values: ReadonlyMap<string, string>): LinkTarget {
  return {
    href: fillHref(link.href, values),
    title: link.title,
    ...(link.type ? { type: link.type } : {}),
    ...(link.hreflang.length > 0 ? { hreflang: [...link.hreflang] } : {}),
    ...(link.context.length > 0 ? { context: [...link.context] } : {}),
  };
}

/**
 * Where a redirect goes: the link's target with the request's values filled in, and the request's
 * query parameters passed on (all but `linkType`, which was the resolver's), before any fragment.
 */
export function redirectLocation(link: Gs1Link, values: ReadonlyMap<string, string>, passedQuery: string): string {
  const target = fillHref(link.href, values);
  if (!passedQuery) return target;
  const hash = target.indexOf('#');
  const [base, fragment] = hash === -1 ? [target, ''] : [target.slice(0, hash), target.slice(hash)];
  return `${base}${base.includes('?') ? '&' : '?'}${passedQuery}${fragment}`;
}

/** The query string without its `linkType` parameters (kept as they came, encoding included). */
export function queryWithoutLinkType(rawQuery: string): string {
  if (!rawQuery) return '';
  return rawQuery
    .split('&')
    .filter((pair) => pair !== '' && pair.split('=')[0] !== 'linkType')
    .join('&');
}
