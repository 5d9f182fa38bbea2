import type { AccountId } from '../../common/ids/account-id';
import type { Gs1ItemId } from '../../common/ids/resource-ids';

/**
 * A resolution that redirected a person, as recorded on the hot path (docs/gs1-digital-link.md#scans):
 * the item whose link was followed, the key as requested (a lot or serial answered through its
 * GTIN's item keeps its own lot and serial) and the link type. The visitor is hashed when its batch
 * is written; the address never leaves memory.
 */
export interface Gs1Scan {
  itemId: Gs1ItemId;
  accountId: AccountId;
  /** epoch milliseconds */
  at: number;
  primaryAi: string;
  primaryValue: string;
  lot: string | null;
  serial: string | null;
  linkType: string;
  isBot: boolean;
  country: string | null;
  ip: string;
  userAgent: string | null;
}

/** A scan as stored: its visitor hashed, its address left behind. */
export type StoredGs1Scan = Omit<Gs1Scan, 'ip' | 'userAgent'> & { visitorHash: string };
