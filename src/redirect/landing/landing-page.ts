/**
 * The redirect host's pages for dynamic codes that are not URLs, and their downloads, built from
 * the code's structured content (not from its encoded string). Pure: no Nest, no I/O.
 */
import type { QrType } from '../../qrcodes/content';
import type { EmailContent } from '../../qrcodes/content/email.encoder';
import type { EventContent } from '../../qrcodes/content/event.encoder';
import type { GeoContent } from '../../qrcodes/content/geo.encoder';
import type { PhoneContent } from '../../qrcodes/content/phone.encoder';
import type { SmsContent } from '../../qrcodes/content/sms.encoder';
import type { TextContent } from '../../qrcodes/content/text.encoder';
import type { VcardContent } from '../../qrcodes/content/vcard.encoder';
import type { WifiContent } from '../../qrcodes/content/wifi.encoder';
import { attachmentDisposition } from '../../infra/http/download';
import { emailPage } from './email-page';
import { eventFile } from './event-file';
import { eventPage } from './event-page';
import { geoPage } from './geo-page';
import { phonePage } from './phone-page';
import { smsPage } from './sms-page';
import { textPage } from './text-page';
import { vcardFile } from './vcard-file';
import { contactName, vcardPage } from './vcard-page';
import { wifiPage } from './wifi-page';

/** Every type but url has a page (url codes redirect). */
export type LandingType = Exclude<QrType, 'url'>;

/** The files a page offers, each under its code's link: `/r/:short_code/contact.vcf`, `/r/:short_code/event.ics`. */
export const LANDING_FILE_NAMES = ['contact.vcf', 'event.ics'] as const;
export type LandingFileName = (typeof LANDING_FILE_NAMES)[number];

export interface LandingFile {
  contentType: string;
  contentDisposition: string;
  body: string;
}

/** The page of a live code, from its stored content. */
export function landingPage(type: LandingType, content: Record<string, unknown>, shortCode: string): string {
  switch (type) {
    case 'vcard':
      return vcardPage(stored<VcardContent>(content), fileHref(shortCode, 'contact.vcf'));
    case 'event':
      return eventPage(stored<EventContent>(content), fileHref(shortCode, 'event.ics'));
    case 'wifi':
      return wifiPage(stored<WifiContent>(content));
    case 'phone':
      return phonePage(stored<PhoneContent>(content));
    case 'sms':
      return smsPage(stored<SmsContent>(content));
    case 'email':
      return emailPage(stored<EmailContent>(content));
    case 'geo':
      return geoPage(stored<GeoContent>(content));
    case 'text':
      return textPage(stored<TextContent>(content));
  }
}

/** The download `name` of a live code of `type`, or null when that type offers no such file. */
export function landingFile(name: LandingFileName, type: QrType, content: Record<string, unknown>, codeId: string, now: number): LandingFile | null {
  if (name === 'contact.vcf' && type === 'vcard') {
    const contact = stored<VcardContent>(content);
    return {
      contentType: 'text/vcard; charset=utf-8',
      contentDisposition: attachmentDisposition(contactName(contact), 'vcf', 'contact'),
      body: vcardFile(contact),
    };
  }
  if (name === 'event.ics' && type === 'event') {
    const event = stored<EventContent>(content);
    return {
      contentType: 'text/calendar; charset=utf-8',
      contentDisposition: attachmentDisposition(event.title, 'ics', 'event'),
      body: eventFile(event, codeId, now),
    };
  }
  return null;
}

/** Content that passed its type's validation when it was stored: the one place it meets its static type. */
function stored<Content>(content: Record<string, unknown>): Content {
  return content as unknown as Content;
}

/** Relative to the page's own address (`/r/<code>`), so it holds behind any proxy path. */
function fileHref(shortCode: string, name: LandingFileName): string {
  return `${encodeURIComponent(shortCode)}/${name}`;
}
