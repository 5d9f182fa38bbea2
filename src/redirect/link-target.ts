import type { QrCodeId } from '../common/ids/resource-ids';
import type { QrType } from '../qrcodes/content';
import { effectiveStatus, type QrStatus, type SettableStatus } from '../qrcodes/qr-code-status';
import type { CompiledRules } from '../qrcodes/smart-links/link-rules-evaluator';
import type { Utm } from '../qrcodes/smart-links/link-settings';
import type { ServedDecision } from './link-decision';

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
  /** smart-link rules compiled for this version of the link (docs/smart-links.md), or null */
  rules: CompiledRules | null;
  maxScans: number | null;
  /** where scans past max_scans go, checked like the target; null: the "limit reached" page */
  fallbackLocation: string | null;
  passwordHash: string | null;
  utm: Utm | null;
  /** what every visit of this link gets while it is live, when no fact of the visit matters (steadyDecision), or null */
  steady: ServedDecision | null;
}

/** The code's status now, by the rule the API uses too. */
export const linkStatus = (target: LinkTarget, now = Date.now()): QrStatus => effectiveStatus(target.status, target.expiresAt, now);
