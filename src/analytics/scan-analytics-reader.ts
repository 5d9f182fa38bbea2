import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import type { AccountScanAggregates, AccountScanFilter, ScanAggregates } from './scan-aggregates';
import type { ScanWindow } from './scan-range';

/**
 * Where analytics get their figures: PostgreSQL (ScanAnalyticsRepository)
 * or ClickHouse (ClickHouseScanEventsRepository), chosen per request by ScanAnalyticsEngines. Both
 * give the same answer for the same stored scans.
 */
export interface ScanAnalyticsReader {
  /** Totals, the zero-filled series and the breakdowns of one code's scans in the window; null when the account has no such code. */
  aggregate(accountId: AccountId, codeId: QrCodeId, window: ScanWindow): Promise<ScanAggregates | null>;
  /**
   * The same over every code of the account that the filter (and the request's key, if it is
   * folder-restricted) lets through, with the top codes.
   */
  accountAggregate(accountId: AccountId, filter: AccountScanFilter, window: ScanWindow): Promise<AccountScanAggregates>;
}

/** Injection token of the reader the service uses. */
export const SCAN_ANALYTICS_READER = Symbol('SCAN_ANALYTICS_READER');
