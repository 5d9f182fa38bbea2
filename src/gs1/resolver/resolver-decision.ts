import { linkTypeCurie } from '../links/link-types';
import type { Gs1Link, ItemLevel } from './gs1-link';
import { acceptedLanguages, acceptedMediaTypes, languageIs, languageNear, mediaTypeMatches, wantsLinksetByAccept } from './request-preferences';

/** What a request to the resolver says, beyond its path. */
export interface ResolverRequest {
  /** the `linkType` query parameter, as given */
  linkType: string | null;
  /** the `context` query parameter */
  context: string | null;
  accept: string | undefined;
  acceptLanguage: string | undefined;
}

/** What the resolver answers for a known item (GS1-Conformant Resolver Standard 1.2, section 5). */
export type ResolverDecision =
  { kind: 'redirect'; link: Gs1Link } | { kind: 'choices'; links: Gs1Link[]; linkType: string } | { kind: 'linkset' } | { kind: 'no-link' };

/**
 * The decision for the item levels found for a key, most specific first (non-empty: an unknown
 * item is the caller's 404). A level's links of a type hide the same type's links above it.
 */
export function decide(levels: readonly ItemLevel[], request: ResolverRequest): ResolverDecision {
  const linkType = request.linkType;
  if (linkType === 'linkset' || linkType === 'all' || (linkType === null && wantsLinksetByAccept(request.accept))) return { kind: 'linkset' };
  const defaultLink = levels.flatMap((level) => level.links).find((link) => link.isDefault);
  if (linkType === null || linkType === 'gs1:defaultLinkMulti') return defaultLink ? toDefault(levels, defaultLink, request) : { kind: 'no-link' };
  const curie = linkTypeCurie(linkType);
  if (curie === 'gs1:defaultLink') return defaultLink ? { kind: 'redirect', link: defaultLink } : { kind: 'no-link' };
  const candidates = curie ? linksOfType(levels, curie) : [];
  if (candidates.length === 0) return { kind: 'no-link' };
  const chosen = preferNeutral(byPreferences(candidates, request), request);
  return chosen.length === 1 ? { kind: 'redirect', link: chosen[0] } : { kind: 'choices', links: chosen, linkType: curie! };
}

/** No link type asked: the default, unless the request's metadata picks a better link of the default's type. */
function toDefault(levels: readonly ItemLevel[], defaultLink: Gs1Link, request: ResolverRequest): ResolverDecision {
  const matching = byPreferences(linksOfType(levels, defaultLink.linkType), request);
  if (matching.includes(defaultLink)) return { kind: 'redirect', link: defaultLink };
  const chosen = preferNeutral(matching, request);
  return { kind: 'redirect', link: chosen.length === 1 ? chosen[0] : defaultLink };
}

/** The links of a type at the most specific level that has any. */
export function linksOfType(levels: readonly ItemLevel[], curie: string): Gs1Link[] {
  for (const level of levels) {
    const links = level.links.filter((link) => link.linkType === curie);
    if (links.length > 0) return links;
  }
  return [];
}

/** Narrows by what the request states (context, then language, then media type); a preference nothing matches is ignored. */
function byPreferences(candidates: Gs1Link[], request: ResolverRequest): Gs1Link[] {
  let remaining = candidates;
  if (request.context) remaining = narrow(remaining, (link) => link.context.includes(request.context!));
  for (const tag of acceptedLanguages(request.acceptLanguage)) {
    const exact = remaining.filter((link) => link.hreflang.some((lang) => languageIs(tag, lang)));
    const near = exact.length > 0 ? exact : remaining.filter((link) => link.hreflang.some((lang) => languageNear(tag, lang)));
    if (near.length > 0) {
      remaining = near;
      break;
    }
  }
  for (const range of acceptedMediaTypes(request.accept)) {
    const matching = remaining.filter((link) => mediaTypeMatches(range, link.type));
    if (matching.length > 0) {
      remaining = matching;
      break;
    }
  }
  return remaining;
}

/** Among links the request could not tell apart, those made for no particular context or language. */
function preferNeutral(links: Gs1Link[], request: ResolverRequest): Gs1Link[] {
  let remaining = links;
  if (!request.context) remaining = narrow(remaining, (link) => link.context.length === 0);
  const statedLanguage = acceptedLanguages(request.acceptLanguage).some((tag) =>
    remaining.some((link) => link.hreflang.some((lang) => languageNear(tag, lang))),
  );
  if (!statedLanguage) remaining = narrow(remaining, (link) => link.hreflang.length === 0);
  return remaining;
}

function narrow(links: Gs1Link[], keep: (link: Gs1Link) => boolean): Gs1Link[] {
  const kept = links.filter(keep);
  return kept.length > 0 ? kept : links;
}
