import { dialableNumber } from './phone-number';

export interface PhoneContent {
  number: string;
}

/** A `tel:` URI (RFC 3966) of the dialable number: readability characters would break some dialers. */
export function encodePhone(content: PhoneContent): string {
  return `tel:${dialableNumber(content.number)}`;
}
