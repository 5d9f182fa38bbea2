import type { QrCodeId } from '../common/ids/resource-ids';
import type { QrType } from '../qrcodes/content';
import { effectiveStatus, type QrStatus, type SettableStatus } from '../qrcodes/qr-code-status';

/** What the redirect host needs to answer a short link: the code's current target and state. */
export interface LinkTarget {
  codeId: QrCodeId;
  type: QrType;
  contentString: string;
  content: Record<string, unknown>;
  status: SettableStatus;
  /** epoch milliseconds, or null */
  expiresAt: number | null;
  /**
   * For url codes: the target in its normal form, checked again when the link is loaded (only
   * plain http(s), never the service itself), or null when it fails that check and must never be
   * followed.
   */
  safeLocation: string | null;
}

/** The code's status now, by the rule the API uses too. */
export const linkStatus = (target: LinkTarget, now = Date.now()): QrStatus => effectiveStatus(target.status, target.expiresAt, now);
