/**
 * The lifecycle of a code (docs/statuses-and-lifecycle.md). A client sets `active` or `paused`;
 * `expired` is never stored: a dynamic code reads `expired` once its expires_at has passed,
 * whatever its stored status. The redirect host and the API both ask this one function.
 */
export const SETTABLE_STATUSES = ['active', 'paused'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];
export const QR_STATUSES = [...SETTABLE_STATUSES, 'expired'] as const;
export type QrStatus = (typeof QR_STATUSES)[number];

/** `expiresAt` as a Date or epoch milliseconds (the redirect host keeps numbers). */
export function effectiveStatus(stored: SettableStatus, expiresAt: Date | number | null, now = Date.now()): QrStatus {
  if (expiresAt !== null && (typeof expiresAt === 'number' ? expiresAt : expiresAt.getTime()) <= now) return 'expired';
  return stored;
}
