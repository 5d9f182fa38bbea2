import { encodeEmail } from '../../qrcodes/content/email.encoder';
import { dialableNumber } from '../../qrcodes/content/phone-number';
import type { VcardAddress, VcardContent } from '../../qrcodes/content/vcard.encoder';
import { isFilled } from './filled-text';
import { escapeAddress, escapeHtml } from './html';
import { mapSearchUrl } from './map-links';
import { landingDocument } from './page-document';
import { actions, isolated, rows, type Row } from './page-parts';
import { webHref } from './web-links';

/**
 * A contact card: initials, name, title and organisation, "Save contact" (the .vcf download),
 * and each detail as a row that does what a phone does with it: call, write, open, find on a map.
 */
export function vcardPage(content: VcardContent, downloadHref: string): string {
  const name = contactName(content);
  const sub = [content.title, content.organization].filter(isFilled).map(isolated).join(' · ');
  const details: Row[] = [];
  if (isFilled(content.phone)) details.push({ label: 'Phone', valueHtml: escapeHtml(content.phone), href: `tel:${dialableNumber(content.phone)}` });
  if (isFilled(content.mobile))
    details.push({ label: 'Mobile', valueHtml: escapeHtml(content.mobile), href: `tel:${dialableNumber(content.mobile)}` });
  if (isFilled(content.email)) details.push({ label: 'Email', valueHtml: escapeAddress(content.email), href: encodeEmail({ to: content.email }) });
  if (isFilled(content.website)) {
    const href = webHref(content.website);
    details.push({ label: 'Website', valueHtml: escapeHtml(content.website), ...(href === null ? {} : { href }) });
  }
  const address = addressLines(content.address);
  if (address.length > 0) details.push({ label: 'Address', valueHtml: escapeHtml(address.join('\n')), href: mapSearchUrl(address.join(', ')) });
  if (isFilled(content.note)) details.push({ label: 'Note', valueHtml: escapeHtml(content.note) });

  return landingDocument({
    title: name,
    kind: 'Contact',
    badgeHtml: escapeHtml(initials(content)),
    heading: name,
    ...(sub === '' ? {} : { subHtml: sub }),
    bodyHtml: actions({ href: downloadHref, label: 'Save contact', icon: 'download', download: true }) + rows(details),
  });
}

/** "Ada Lovelace"; at least one part is present in valid content. */
export function contactName(content: VcardContent): string {
  return [content.first_name, content.last_name].filter(isFilled).join(' ') || 'Contact';
}

/** The address as it is written on an envelope: street; postcode and city; region; country. */
export function addressLines(address: VcardAddress | undefined): string[] {
  if (address === undefined) return [];
  const town = [address.postcode, address.city].filter(isFilled).join(' ');
  return [address.street, town, address.region, address.country].filter(isFilled);
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The first character (as a reader sees it: an emoji or a letter with its accents) of each name part. */
function initials(content: VcardContent): string {
  const first = (part: string | undefined) => (isFilled(part) ? (graphemes.segment(part.trim())[Symbol.iterator]().next().value?.segment ?? '') : '');
  return (first(content.first_name) + first(content.last_name)).toLocaleUpperCase('en');
}
