import { escapeHtml } from './html';
import { icon } from './icons';
import { landingDocument } from './page-document';

/**
 * Pages of the link controls (docs/smart-links.md#link-controls), in the design of the others. The
 * password form posts back to the scanned link itself (its query kept); the page's content security
 * policy lets the form be sent and its redirects be followed to the target (PASSWORD_PAGE_CSP).
 */

export const LIMIT_REACHED_PAGE = landingDocument({
  title: 'Scan limit reached',
  badgeHtml: icon('gauge'),
  heading: 'Scan limit reached',
  bodyHtml: '<p class="message">This QR code has been scanned as many times as its owner allows.</p>',
});

export const TOO_MANY_ATTEMPTS_PAGE = landingDocument({
  title: 'Too many attempts',
  badgeHtml: icon('lock'),
  heading: 'Too many attempts',
  bodyHtml: '<p class="message">Too many wrong passwords were entered for this QR code. Wait a few minutes, then try again.</p>',
});

/** The password form; `action` is the scanned path with its query (`/r/<code>?src=poster`), `wrong` after a wrong password. */
export function passwordPage(action: string, wrong: boolean, protects = 'this QR code'): string {
  const error = wrong ? '<p class="message" role="alert"><strong>Wrong password.</strong> Try again.</p>' : '';
  return landingDocument({
    title: 'Password required',
    badgeHtml: icon('lock'),
    heading: 'Password required',
    subHtml: `The owner of ${escapeHtml(protects)} protects it with a password.`,
    bodyHtml:
      `${error}<form method="post" action="${escapeHtml(action)}">` +
      '<div class="field"><label for="password">Password</label>' +
      '<input id="password" name="password" type="password" required autocomplete="current-password" autofocus></div>' +
      '<div class="actions"><button class="button primary" type="submit"><span>Open</span></button></div></form>',
  });
}
