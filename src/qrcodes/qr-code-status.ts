/** Statuses a client may set (design §5). `expired` is derived from expires_at, never stored. */
export const QR_STATUSES = ['active', 'paused'] as const;
export type SettableStatus = (typeof QR_STATUSES)[number];
export type QrStatus = SettableStatus | 'expired';

export function effectiveStatus(stored: string, expiresAt: Date | null, now = new Date()): QrStatus {
  if (expiresAt && expiresAt.getTime() <= now.getTime()) return 'expired';
  return stored as SettableStatus;
}
