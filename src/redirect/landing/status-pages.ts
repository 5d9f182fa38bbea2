import { escapeHtml } from './html';
import { icon, type IconName } from './icons';
import { landingDocument } from './page-document';

/** A page for a link that cannot be opened, in the same design as the content pages. */
function statusPage(badge: IconName, heading: string, message: string): string {
  return landingDocument({ title: heading, badgeHtml: icon(badge), heading, bodyHtml: `<p class="message">${escapeHtml(message)}</p>` });
}

/** Built once: they never change. */
export const PAUSED_PAGE = statusPage('pause', 'This code is paused', 'Its owner has paused this QR code for now. Try again later.');
export const EXPIRED_PAGE = statusPage('clock', 'This code has expired', 'This QR code is no longer active.');
export const NOT_FOUND_PAGE = statusPage(
  'search',
  'Code not found',
  'This QR code does not exist or has been deleted. Check that the whole code was scanned.',
);
export const UNAVAILABLE_PAGE = statusPage('cloud', 'Temporarily unavailable', 'This QR code cannot be opened right now. Try again in a moment.');
export const ERROR_PAGE = statusPage('alert', 'Something went wrong', 'This QR code could not be opened. Try again later.');
/** The root of a branded domain without a root_redirect_url: says what the host is, and nothing about whose it is. */
export const DOMAIN_ROOT_PAGE = statusPage(
  'search',
  'QR code links',
  'This address serves the links of printed QR codes. Scan a code to open its link.',
);
