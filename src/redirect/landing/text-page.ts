import type { TextContent } from '../../qrcodes/content/text.encoder';
import { escapeHtml } from './html';
import { icon } from './icons';
import { landingDocument } from './page-document';
import { linkedTextHtml } from './web-links';

/** A short one-line text without links is the heading itself; anything else is shown under a plain heading. */
const HEADING_TEXT_LENGTH = 80;

/** A text: shown as written (line breaks kept), web addresses in it as links when they pass the redirect rule. */
export function textPage(content: TextContent): string {
  const linked = linkedTextHtml(content.text);
  const asHeading = content.text.length <= HEADING_TEXT_LENGTH && !content.text.includes('\n') && linked === escapeHtml(content.text);
  const heading = asHeading ? content.text : 'Message';
  return landingDocument({
    title: heading,
    kind: 'Text',
    badgeHtml: icon('text'),
    heading,
    bodyHtml: asHeading ? '' : `<p class="text" dir="auto">${linked}</p>`,
  });
}
