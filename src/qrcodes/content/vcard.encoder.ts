import { escapeContentLineText, joinContentLines } from './content-line-text';

export interface VcardAddress {
  street?: string;
  city?: string;
  region?: string;
  postcode?: string;
  country?: string;
}

/** At least one of first_name and last_name is present. */
export interface VcardContent {
  first_name?: string;
  last_name?: string;
  organization?: string;
  title?: string;
  phone?: string;
  mobile?: string;
  email?: string;
  website?: string;
  address?: VcardAddress;
  note?: string;
}

/**
 * A vCard 3.0 (RFC 2426) contact card. Text values are escaped; TEL and URL hold a phone number
 * and a URI, value types RFC 2426 does not escape, and validation keeps line breaks out of both.
 * Values pass through in UTF-8 as they are, which current contact apps expect.
 */
export function encodeVcard(content: VcardContent): string {
  const text = (value: string | undefined) => escapeContentLineText(value ?? '');
  const fullName = [content.first_name, content.last_name].filter((part) => part !== undefined).join(' ');
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', `N:${text(content.last_name)};${text(content.first_name)};;;`, `FN:${text(fullName)}`];
  if (content.organization !== undefined) lines.push(`ORG:${text(content.organization)}`);
  if (content.title !== undefined) lines.push(`TITLE:${text(content.title)}`);
  if (content.phone !== undefined) lines.push(`TEL;TYPE=VOICE:${content.phone}`);
  if (content.mobile !== undefined) lines.push(`TEL;TYPE=CELL:${content.mobile}`);
  if (content.email !== undefined) lines.push(`EMAIL;TYPE=INTERNET:${text(content.email)}`);
  if (content.website !== undefined) lines.push(`URL:${content.website}`);
  if (content.address !== undefined) {
    const { street, city, region, postcode, country } = content.address;
    // ADR components: post office box; extended address; street; locality; region; postal code; country.
    lines.push(`ADR:;;${[street, city, region, postcode, country].map(text).join(';')}`);
  }
  if (content.note !== undefined) lines.push(`NOTE:${text(content.note)}`);
  lines.push('END:VCARD');
  return joinContentLines(lines);
}
