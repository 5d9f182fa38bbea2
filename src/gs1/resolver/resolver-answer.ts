import { type Gs1Key, keyPath } from '../syntax/digital-link-key';
import type { ItemLevel } from './gs1-link';
import { buildLinkset, LINKSET_CONTEXT, queryWithoutLinkType, redirectLocation, targetOf } from './linkset';
import { LINKSET_MEDIA_TYPE } from './request-preferences';
import { decide, type ResolverRequest } from './resolver-decision';
import type { ResolverPath } from './resolver-path';

/** Headers every resolver answer carries (GS1-Conformant Resolver 1.2: CORS on every answer). */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': 'Accept, Accept-Language',
  'access-control-expose-headers': 'Link, Location',
};

/** An answer of the resolver, as the host sends it. */
export interface ResolverAnswer {
  status: 200 | 204 | 300 | 307 | 400 | 404;
  headers: Record<string, string>;
  /** a JSON body; an error's message goes into the error shape (the host adds the request id) */
  json?: unknown;
  error?: string;
  /** a redirect of a person: the link type and key it was for (a scan, once sent) */
  redirected?: { linkType: string; key: Gs1Key };
}

/** The request as the resolver reads it. */
export interface ResolverQuestion extends ResolverRequest {
  method: string;
  /** where anchors live: the origin and the resolver's root (`https://id.brand.example`, `https://qr.example.com/gs1`) */
  root: string;
}

/** The linkset's own URI, announced on every answer about the item (the standard's SHOULD). */
const linksetLink = (root: string, key: Gs1Key) => `<${root}${keyPath(key)}?linkType=linkset>; rel="linkset"; type="${LINKSET_MEDIA_TYPE}"`;

/**
 * The resolver's answer for a request whose path was read (`target`) and whose item levels were
 * found (most specific first; empty: unknown, 404). Pure: the host sends it and records the scan.
 */
export function resolverAnswer(question: ResolverQuestion, target: ResolverPath, levels: readonly ItemLevel[]): ResolverAnswer {
  const links = [linksetLink(question.root, target.key)];
  if (target.uncompressed) links.push(`<${question.root}${target.uncompressed}>; rel="owl:sameAs"`);
  const headers: Record<string, string> = { ...CORS_HEADERS, vary: 'Accept, Accept-Language', link: links.join(', ') };
  if (question.method === 'OPTIONS') return { status: 204, headers: { ...headers, allow: 'GET, HEAD, OPTIONS' } };
  if (levels.length === 0) return { status: 404, headers, error: `No item is registered for ${keyPath(target.key)}` };
  const decision = decide(levels, question);
  switch (decision.kind) {
    case 'linkset':
      headers['content-type'] = LINKSET_MEDIA_TYPE;
      headers.link = [...links, `<${LINKSET_CONTEXT}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`].join(', ');
      return { status: 200, headers, json: buildLinkset(levels, (key) => `${question.root}${keyPath(key)}`, target.values) };
    case 'redirect':
      headers.location = redirectLocation(decision.link, target.values, queryWithoutLinkType(target.query));
      return { status: 307, headers, redirected: { linkType: decision.link.linkType, key: target.key } };
    case 'choices':
      return {
        status: 300,
        headers,
        json: {
          anchor: `${question.root}${keyPath(target.key)}`,
          link_type: decision.linkType,
          links: decision.links.map((link) => targetOf(link, target.values)),
        },
      };
    case 'no-link':
      return { status: 404, headers, error: `The item has no link of type ${question.linkType ?? 'gs1:defaultLink'}` };
  }
}

/** The answer to a path that is no GS1 Digital Link (or whose query breaks the syntax). */
export const syntaxErrorAnswer = (message: string): ResolverAnswer => ({ status: 400, headers: { ...CORS_HEADERS }, error: message });
