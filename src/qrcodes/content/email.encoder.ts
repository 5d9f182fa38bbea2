export interface EmailContent {
  to: string;
  subject?: string;
  body?: string;
}

/** Characters an address may keep as they are inside a `mailto:` URI (RFC 6068 §2: unreserved and some-delims). */
const MAILTO_ADDRESS_CHARACTER = /[A-Za-z0-9\-._~!$'()*+,;:@]/;

/** A `mailto:` URI (RFC 6068) with `subject` and `body` header fields for the parts present. */
export function encodeEmail(content: EmailContent): string {
  const headerFields: string[] = [];
  if (content.subject !== undefined) headerFields.push(`subject=${encodeURIComponent(content.subject)}`);
  // RFC 6068 §5: line breaks in a body are written as %0D%0A.
  if (content.body !== undefined) headerFields.push(`body=${encodeURIComponent(content.body.replace(/\r\n|\r|\n/g, '\r\n'))}`);
  const query = headerFields.length > 0 ? `?${headerFields.join('&')}` : '';
  return `mailto:${encodeMailtoAddress(content.to)}${query}`;
}

/** Percent-encodes what would end the address early (`?`, `#`, `&`, `%`) or is not URI-safe (non-ASCII as UTF-8). */
function encodeMailtoAddress(address: string): string {
  return Array.from(address, (character) => (MAILTO_ADDRESS_CHARACTER.test(character) ? character : encodeURIComponent(character))).join('');
}
