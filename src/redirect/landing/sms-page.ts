import { dialableNumber } from '../../qrcodes/content/phone-number';
import type { SmsContent } from '../../qrcodes/content/sms.encoder';
import { isFilled } from './filled-text';
import { escapeHtml } from './html';
import { icon } from './icons';
import { landingDocument } from './page-document';
import { actions, copyField } from './page-parts';

/** A text message to send: the number large, the message as a bubble, "Send message" and both to copy. */
export function smsPage(content: SmsContent): string {
  const message = isFilled(content.message) ? content.message : undefined;
  return landingDocument({
    title: content.number,
    kind: 'Text message',
    badgeHtml: icon('message'),
    heading: content.number,
    bodyHtml:
      (message === undefined ? '' : `<p class="bubble" dir="auto">${escapeHtml(message)}</p>`) +
      actions({ href: smsHref(content), label: 'Send message', icon: 'message' }) +
      copyField({ id: 'number', label: 'Number', value: content.number }) +
      (message === undefined ? '' : copyField({ id: 'message', label: 'Message', value: message, multiline: true })),
  });
}

/**
 * An `sms:` URI (RFC 5724) with the message as its `body`, percent-encoded as UTF-8: the form
 * that iOS and Android messaging apps open with the text filled in.
 */
export function smsHref(content: SmsContent): string {
  const number = dialableNumber(content.number);
  return isFilled(content.message) ? `sms:${number}?body=${encodeURIComponent(content.message)}` : `sms:${number}`;
}
