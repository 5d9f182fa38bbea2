import type { FolderId, QrCodeId, TagId } from '../common/ids/resource-ids';
import type { QrType } from '../qrcodes/content/qr-types';

export const BREAKDOWN_DIMENSIONS = ['device', 'os', 'browser', 'referrer'] as const;
export type BreakdownDimension = (typeof BREAKDOWN_DIMENSIONS)[number];
/** Values listed per breakdown dimension (and top codes). */
export const BREAKDOWN_TOP = 10;

/** The value of `by_country` for scans whose country is not known. */
export const UNKNOWN_COUNTRY = 'unknown';

export interface ScanTotals {
  scans: number;
  uniqueVisitors: number;
  botScans: number;
}

/** What the breakdowns of one window say, for one code or an account. */
export interface ScanBreakdowns {
  breakdowns: Record<BreakdownDimension, Array<{ value: string; scans: number }>>;
  /** Top countries (UNKNOWN_COUNTRY for scans of no known country). */
  byCountry: Array<{ value: string; scans: number }>;
  /** Top known cities, each with its country (city names repeat across countries). */
  byCity: Array<{ value: string; country: string | null; scans: number }>;
}

export interface ScanAggregates extends ScanBreakdowns {
  totals: ScanTotals;
  series: Array<{ start: Date; scans: number; uniqueVisitors: number }>;
  /** Scans each smart-link rule answered (its index in the code's rules), most first. */
  byRule: Array<{ rule: number; scans: number }>;
  /** Scans each split arm answered, per rule. */
  byArm: Array<{ rule: number; arm: number; scans: number }>;
}

/** Which of an account's codes account-wide analytics count (the key's folder restriction applies on top). */
export interface AccountScanFilter {
  folderId?: FolderId;
  type?: QrType;
  /** Only codes carrying this tag (a tag's stats page, docs/sharing.md#stats-pages). */
  tagId?: TagId;
}

export interface TopCode {
  codeId: QrCodeId;
  name: string;
  shortCode: string | null;
  type: string;
  scans: number;
}

export interface AccountScanAggregates extends ScanBreakdowns {
  totals: ScanTotals;
  series: Array<{ start: Date; scans: number; uniqueVisitors: number }>;
  /** The codes with the most scans in the window, most first. */
  topCodes: TopCode[];
}
