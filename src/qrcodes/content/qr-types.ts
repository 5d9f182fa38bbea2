/** The QR code types (docs/content-types.md); a code's type is fixed at creation. */
export const QR_TYPES = ['url', 'text', 'email', 'phone', 'sms', 'wifi', 'vcard', 'geo', 'event'] as const;
export type QrType = (typeof QR_TYPES)[number];

export function isQrType(value: unknown): value is QrType {
  return typeof value === 'string' && (QR_TYPES as readonly string[]).includes(value);
}
