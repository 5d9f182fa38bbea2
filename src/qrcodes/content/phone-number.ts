/**
 * Phone numbers as people write them ("+49 (30) 123-456", "(+44) 20 7946 0000"): digits and a `+`
 * with spaces, dashes, dots or parentheses for readability. Without those, what remains must be
 * dialable: an optional leading `+` and at least three digits. Not a full E.164 check: national
 * formats and short numbers are legitimate in a QR code.
 */

export const MIN_PHONE_NUMBER_LENGTH = 3;
export const MAX_PHONE_NUMBER_LENGTH = 32;

const WRITTEN_PHONE_NUMBER = /^[0-9+ ().-]+$/;
const DIALABLE_NUMBER = /^\+?[0-9]{3,}$/;
const READABILITY_CHARACTERS = /[ ().-]/g;

export function isWrittenPhoneNumber(value: string): boolean {
  return (
    value.length >= MIN_PHONE_NUMBER_LENGTH &&
    value.length <= MAX_PHONE_NUMBER_LENGTH &&
    WRITTEN_PHONE_NUMBER.test(value) &&
    DIALABLE_NUMBER.test(dialableNumber(value))
  );
}

/** The number a phone dials: the written form without its readability characters. */
export function dialableNumber(writtenNumber: string): string {
  return writtenNumber.replace(READABILITY_CHARACTERS, '');
}
