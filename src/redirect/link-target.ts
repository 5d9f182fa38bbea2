import type { QrType } from '../qrcodes/content';

/** What the redirect host needs to answer a short link: the code's current target and state. */
export interface LinkTarget {
  codeId: string;
  type: QrType;
  contentString: string;
  content: Record<string, unknown>;
  status: string;
  /** epoch milliseconds, or null */
  expiresAt: number | null;
  /**
   * For url codes: the target, checked again when the link is loaded (only plain http(s), never
   * the service itself), or null when it fails that check and must never be followed.
   */
  safeLocation: string | null;
}

export type LinkState = 'live' | 'paused' | 'expired';

export function linkState(target: LinkTarget, now = Date.now()): LinkState {
  if (target.expiresAt !== null && target.expiresAt <= now) return 'expired';
  return target.status === 'paused' ? 'paused' : 'live';
}
