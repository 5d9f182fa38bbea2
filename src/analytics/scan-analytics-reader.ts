import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import type { ScanAggregates } from './scan-aggregates';
import type { ScanWindow } from './scan-range';

/**
 * Where /scans gets its figures: PostgreSQL (ScanAnalyticsRepository) or ClickHouse
 * (ClickHouseScanAnalyticsRepository), chosen per request by ScanAnalyticsEngines. Both give the
 * same answer for the same stored scans.
 */
export interface ScanAnalyticsReader {
  /** Totals, the zero-filled series and the breakdowns of one code's scans in the window; null when the account has no such code. */
  aggregate(accountId: AccountId, codeId: QrCodeId, window: ScanWindow): Promise<ScanAggregates | null>;
}

/** Injection token of the reader the service uses. */
export const SCAN_ANALYTICS_READER = Symbol('SCAN_ANALYTICS_READER');
