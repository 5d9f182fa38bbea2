import type { QrCodeId } from '../common/ids/resource-ids';

/**
 * A scan as recorded on the hot path; its event id is drawn, its user agent classified and its
 * visitor hashed when its batch is written (what a redirect keeps in memory until then, it keeps for
 * up to a hand-on's time).
 */
export interface ScanEvent {
  codeId: QrCodeId;
  /** epoch milliseconds */
  at: number;
  userAgent: string | null;
  referrer: string | null;
  /** The visitor's address: only the visitor hash the batch writer makes of it leaves memory (never staged, stored or logged). */
  ip: string;
  isBot: boolean;
  /** Where the scan came from (GeoLocator): ISO 3166-1 alpha-2, and the city with a city database; null when unknown. */
  country: string | null;
  city: string | null;
  /** the smart-link rule (index in the code's rules) and split arm that answered the scan; null or left out: none */
  ruleIndex?: number | null;
  armIndex?: number | null;
}

const MAX_HEADER_CHARS = 512;

export const clipHeader = (value: string | string[] | undefined): string | null => {
  const text = Array.isArray(value) ? value[0] : value;
  return text ? text.slice(0, MAX_HEADER_CHARS) : null;
};
