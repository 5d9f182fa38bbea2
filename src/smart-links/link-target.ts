import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import type { QrType } from '../qrcodes/content';
import { effectiveStatus, type QrStatus, type SettableStatus } from '../qrcodes/qr-code-status';
import type { CompiledRules } from './settings/link-rules-evaluator';
import type { Utm } from './settings/link-settings';
import type { LinkPreviewSettings } from './settings/link-preview';

/**
 * What a scan of a link gets, before the scan limit (docs/smart-links.md#order): decideLink
 * (link-decision.ts) makes it for the redirect host and the dry run alike.
 */
export type LinkDecision =
  | { kind: 'not_found' }
  | { kind: 'paused' }
  | { kind: 'expired' }
  | { kind: 'password_required' }
  /** a url code whose stored target is no longer a safe one (the service's hosts changed) */
  | { kind: 'refused'; ruleIndex: number | null }
  | { kind: 'redirect'; location: string; ruleIndex: number | null; armIndex: number | null }
  /** the code's landing page (non-url types) */
  | { kind: 'page'; ruleIndex: number | null };

/** A decision that serves the link: its target or its landing page. */
export type ServedDecision = Extract<LinkDecision, { kind: 'redirect' | 'page' }>;

/** What the redirect host needs to answer a short link: the code's current target and state. */
export interface LinkTarget {
  codeId: QrCodeId;
  /** The account holding the code (its preview image is drawn as the account's). */
  accountId: AccountId;
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
  /** what chat apps' preview bots are shown instead of the redirect (docs/sharing.md#link-previews), or null */
  preview: LinkPreviewSettings | null;
  /** what every visit of this link gets while it is live, when no fact of the visit matters (steadyDecision), or null */
  steady: ServedDecision | null;
}

/** The code's status now, by the rule the API uses too. */
export const linkStatus = (target: LinkTarget, now = Date.now()): QrStatus => effectiveStatus(target.status, target.expiresAt, now);
