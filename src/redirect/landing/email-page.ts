import { encodeEmail, type EmailContent } from '../../qrcodes/content/email.encoder';
import { isFilled } from './filled-text';
import { escapeAddress, escapeHtml } from './html';
import { icon } from './icons';
import { landingDocument } from './page-document';
import { actions, copyField, rows, type Row } from './page-parts';

/**
 * An email to write: the address large, subject and text shown, "Write email" (the `mailto:` link
 * the code itself encodes, subject and body percent-encoded) and the address to copy.
 */
export function emailPage(content: EmailContent): string {
  const details: Row[] = [];
  if (isFilled(content.subject)) details.push({ label: 'Subject', valueHtml: escapeHtml(content.subject) });
  if (isFilled(content.body)) details.push({ label: 'Message', valueHtml: escapeHtml(content.body) });
  return landingDocument({
    title: content.to,
    kind: 'Email',
    badgeHtml: icon('mail'),
    heading: content.to,
    headingHtml: escapeAddress(content.to),
    bodyHtml:
      actions({ href: encodeEmail(content), label: 'Write email', icon: 'mail' }) +
      rows(details) +
      copyField({ id: 'address', label: 'Address', value: content.to }),
  });
}
