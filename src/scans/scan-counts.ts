import type { QrCodeId } from '../common/ids/resource-ids';

/**
 * Scans served but not yet stored, which `scans` must include: the narrow view of the scan
 * pipeline that the QR code module needs (ScansModule provides it as SCAN_COUNTS).
 */
export interface ScanCounts {
  /**
   * Reads stored codes and the pending scans of the codes `codeIdsOf` names, as one step: no scan
   * moves from pending to stored between the two reads unseen by both.
   */
  readWithPending<T>(read: () => Promise<T>, codeIdsOf: (result: T) => QrCodeId[]): Promise<{ result: T; pending: Map<string, number> }>;
}

export const SCAN_COUNTS = Symbol('SCAN_COUNTS');
