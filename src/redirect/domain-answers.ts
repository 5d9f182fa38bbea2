import { DOMAIN_ROOT_PAGE, NOT_FOUND_PAGE } from './landing/status-pages';
import type { ServedDomain } from '../domains';
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
