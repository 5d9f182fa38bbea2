import { encodePhone, type PhoneContent } from '../../qrcodes/content/phone.encoder';
import { icon } from './icons';
import { landingDocument } from './page-document';
import { actions, copyField } from './page-parts';

/** A phone number, large, with "Call" (the `tel:` link the code itself encodes) and the number to copy. */
export function phonePage(content: PhoneContent): string {
  return landingDocument({
    title: content.number,
    kind: 'Phone',
    badgeHtml: icon('phone'),
    heading: content.number,
    bodyHtml:
      actions({ href: encodePhone(content), label: 'Call', icon: 'phone' }) + copyField({ id: 'number', label: 'Number', value: content.number }),
  });
}
