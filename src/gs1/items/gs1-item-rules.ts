import type { FieldError } from '../../common/validation/field-error';
import { normaliseRedirectTarget, type OwnHosts } from '../../common/web/redirect-target';
import { placeholderAis } from '../links/href-template';
import { linkTypeCurie } from '../links/link-types';
import { DATA_ATTRIBUTE_BY_AI, PRIMARY_KEY_BY_AI, QUALIFIER_BY_AI } from '../syntax/ai-dictionary';
import { type Gs1Key, keyPath, parseKeyPath } from '../syntax/digital-link-key';
import type { Gs1Link } from '../resolver/gs1-link';

/** A link as it is stored (the item's `links` column) and shown. */
export interface StoredLink {
  link_type: string;
  href: string;
  title: string;
  hreflang: string[];
  type: string | null;
  context: string[];
  default: boolean;
}

/** A link as the request gives it (validated for shape by the DTO). */
export interface LinkInput {
  link_type: string;
  href: string;
  title: string;
  hreflang?: string[];
  type?: string;
  context?: string[];
  default?: boolean;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** The item's key from its `path` field, normalised (GTINs in 14 digits). */
export function checkPath(path: string): Checked<{ key: Gs1Key; path: string }> {
  const parsed = parseKeyPath(path.startsWith('/') ? path : `/${path}`);
  if (!parsed.ok) return { ok: false, errors: [{ field: 'path', message: `path is not a GS1 Digital Link key path: ${parsed.message}` }] };
  return { ok: true, value: { key: parsed.value, path: keyPath(parsed.value) } };
}

/** Every link with a GS1 link type, a target the redirect host may send people to, and exactly one default. */
export function checkLinks(links: readonly LinkInput[], ownHosts: OwnHosts): Checked<StoredLink[]> {
  const errors: FieldError[] = [];
  const stored = links.map((link, i) => {
    const field = `links[${i}]`;
    const linkType = linkTypeCurie(link.link_type);
    if (!linkType || linkType === 'gs1:defaultLink' || linkType === 'gs1:defaultLinkMulti') {
      errors.push({
        field: `${field}.link_type`,
        message: `${field}.link_type must be a GS1 Web Vocabulary link type such as gs1:pip (mark the default with default: true)`,
      });
    }
    const href = checkHref(link.href, ownHosts);
    if (!href.ok) errors.push({ field: `${field}.href`, message: `${field}.href ${href.problem}` });
    return {
      link_type: linkType ?? link.link_type,
      href: href.ok ? href.href : link.href,
      title: link.title,
      hreflang: link.hreflang ?? [],
      type: link.type ?? null,
      context: link.context ?? [],
      default: link.default === true,
    };
  });
  const defaults = stored.filter((link) => link.default).length;
  if (defaults !== 1) errors.push({ field: 'links', message: `links must have exactly one link with default: true (found ${defaults})` });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: stored };
}

/** Placeholders stand in the URL parser as plain tokens, so that they survive normalisation where they are. */
const token = (ai: string) => `gs1ai${ai}gs1ai`;
const TOKEN = /gs1ai(\d{2,4})gs1ai/g;
const KNOWN_AIS = new Set([...PRIMARY_KEY_BY_AI.keys(), ...QUALIFIER_BY_AI.keys(), ...DATA_ATTRIBUTE_BY_AI.keys()]);

function checkHref(href: string, ownHosts: OwnHosts): { ok: true; href: string } | { ok: false; problem: string } {
  if (typeof href !== 'string') return { ok: false, problem: 'must be a string' };
  const unknown = placeholderAis(href).find((ai) => !KNOWN_AIS.has(ai));
  if (unknown) return { ok: false, problem: `names {${unknown}}, which is no GS1 AI a request can carry` };
  const check = normaliseRedirectTarget(
    href.replace(/\{(\d{2,4})\}/g, (_, ai: string) => token(ai)),
    ownHosts,
  );
  if (!check.ok) return check;
  if (/gs1ai\d{2,4}gs1ai/.test(new URL(check.href).origin))
    return { ok: false, problem: 'may hold {AI} placeholders in its path and query only, not in its host' };
  return { ok: true, href: check.href.replace(TOKEN, (_, ai: string) => `{${ai}}`) };
}

/** A stored link as the resolver's pure functions read it. */
export const toGs1Link = (link: StoredLink): Gs1Link => ({
  linkType: link.link_type,
  href: link.href,
  title: link.title,
  hreflang: link.hreflang,
  type: link.type,
  context: link.context,
  isDefault: link.default,
});
