/** Each QR type's content DTO (validation and OpenAPI schema) and encoder, in one table. */
import { EmailContentDto } from './email-content.dto';
import { encodeEmail } from './email.encoder';
import { EventContentDto } from './event-content.dto';
import { encodeEvent } from './event.encoder';
import { GeoContentDto } from './geo-content.dto';
import { encodeGeo } from './geo.encoder';
import { PhoneContentDto } from './phone-content.dto';
import { encodePhone } from './phone.encoder';
import { type QrType } from './qr-types';
import { SmsContentDto } from './sms-content.dto';
import { encodeSms } from './sms.encoder';
import { TextContentDto } from './text-content.dto';
import { encodeText } from './text.encoder';
import { UrlContentDto } from './url-content.dto';
import { encodeUrl } from './url.encoder';
import { VcardContentDto } from './vcard-content.dto';
import { encodeVcard } from './vcard.encoder';
import { WifiContentDto } from './wifi-content.dto';
import { encodeWifi } from './wifi.encoder';

export interface ContentType {
  dto: new () => object;
  /** Takes content that passed `dto` validation, as stored. */
  encode: (content: Record<string, unknown>) => string;
}

/** Pairs a DTO with the encoder of its content shape; the one place validated content meets its static type. */
function contentType<Content>(dto: new () => Content & object, encode: (content: Content) => string): ContentType {
  return { dto, encode: (content) => encode(content as Content) };
}

export const CONTENT_TYPES: Record<QrType, ContentType> = {
  url: contentType(UrlContentDto, encodeUrl),
  text: contentType(TextContentDto, encodeText),
  email: contentType(EmailContentDto, encodeEmail),
  phone: contentType(PhoneContentDto, encodePhone),
  sms: contentType(SmsContentDto, encodeSms),
  wifi: contentType(WifiContentDto, encodeWifi),
  vcard: contentType(VcardContentDto, encodeVcard),
  geo: contentType(GeoContentDto, encodeGeo),
  event: contentType(EventContentDto, encodeEvent),
};

/** DTO classes per type, for the OpenAPI docs (anyOf of `content`). */
export const CONTENT_DTO_BY_TYPE = Object.fromEntries(Object.entries(CONTENT_TYPES).map(([type, { dto }]) => [type, dto])) as Record<
  QrType,
  new () => object
>;
