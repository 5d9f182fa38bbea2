import { dialableNumber } from './phone-number';

export interface SmsContent {
  number: string;
  message?: string;
}

/**
 * The `SMSTO:<number>:<message>` form that scanner apps (ZXing, iOS, Android) open in the
 * messaging app. Readers split at the first colon after the number, so the message needs no
 * escaping; without a message the trailing colon stays for a uniform shape.
 */
export function encodeSms(content: SmsContent): string {
  return `SMSTO:${dialableNumber(content.number)}:${content.message ?? ''}`;
}
