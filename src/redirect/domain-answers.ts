import { DOMAIN_ROOT_PAGE, NOT_FOUND_PAGE } from './landing/status-pages';
import { type AppLinks, appleAppSiteAssociation, assetLinks, type ServedDomain } from '../domains';
import type { RedirectAnswer } from './redirect-answer';

/**
 * The answers of a branded domain that name no code (docs/domains-and-tls.md#on-the-domain):
 * its root, and a short code unknown on it. Neither is a scan.
 */

/** `GET /` on the domain: its root_redirect_url, or a neutral page (a pending domain: the 404 page). */
export function domainRootAnswer(domain: ServedDomain): RedirectAnswer {
  if (!domain.served) return { kind: 'page', status: 404, html: NOT_FOUND_PAGE };
  if (domain.rootRedirectUrl) return { kind: 'redirect', location: domain.rootRedirectUrl };
  return { kind: 'page', status: 200, html: DOMAIN_ROOT_PAGE };
}

/** A code unknown on the host: the domain's not_found_url when it has one, else the 404 page. */
export function unknownCodeAnswer(domain: ServedDomain | undefined): RedirectAnswer {
  if (domain?.notFoundUrl) return { kind: 'redirect', location: domain.notFoundUrl };
  return { kind: 'page', status: 404, html: NOT_FOUND_PAGE };
}

/** The app-link files a branded domain serves (docs/sharing.md#app-links-on-branded-domains), by path. */
export const APP_LINK_FILES: Record<string, (links: AppLinks) => object | null> = {
  '/.well-known/apple-app-site-association': appleAppSiteAssociation,
  '/.well-known/assetlinks.json': assetLinks,
};

/** A served domain's app-link file as JSON text, or null (no domain, not served, or no such app configured): 404. */
export function appLinkFile(domain: ServedDomain | undefined, path: string): string | null {
  const links = domain?.served ? domain.appLinks : null;
  const body = links ? APP_LINK_FILES[path](links) : null;
  return body ? JSON.stringify(body) : null;
}
