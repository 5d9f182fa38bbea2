import { escapeContentLineText as text } from '../../qrcodes/content/content-line-text';
import type { VcardContent } from '../../qrcodes/content/vcard.encoder';
import { contentLinesText, singleLineValue } from './content-lines';
import { isFilled } from './filled-text';
import { contactName } from './vcard-page';
import { webHref } from './web-links';

/**
 * The contact as a vCard 3.0 file (`contact.vcf`), the version both iOS and Android Contacts
 * import: UTF-8, CRLF line endings, long lines folded. A website that is not a plain http(s) URL
 * is left out, so a `javascript:` value can never reach a contact app as a link.
 */
export function vcardFile(content: VcardContent): string {
  const lines = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `N:${text(content.last_name ?? '')};${text(content.first_name ?? '')};;;`,
    `FN:${text(contactName(content))}`,
  ];
  if (isFilled(content.organization)) lines.push(`ORG:${text(content.organization)}`);
  if (isFilled(content.title)) lines.push(`TITLE:${text(content.title)}`);
  if (isFilled(content.phone)) lines.push(`TEL;TYPE=WORK,VOICE:${singleLineValue(content.phone)}`);
  if (isFilled(content.mobile)) lines.push(`TEL;TYPE=CELL:${singleLineValue(content.mobile)}`);
  if (isFilled(content.email)) lines.push(`EMAIL;TYPE=INTERNET:${text(content.email)}`);
  const website = isFilled(content.website) ? webHref(content.website) : null;
  if (website !== null) lines.push(`URL:${website}`);
  const address = content.address;
  if (address !== undefined && [address.street, address.city, address.region, address.postcode, address.country].some(isFilled)) {
    // ADR components: post office box; extended address; street; locality; region; postal code; country.
    lines.push(
      `ADR:;;${[address.street, address.city, address.region, address.postcode, address.country].map((part) => text(part ?? '')).join(';')}`,
    );
  }
  if (isFilled(content.note)) lines.push(`NOTE:${text(content.note)}`);
  lines.push('END:VCARD');
  return contentLinesText(lines);
}
