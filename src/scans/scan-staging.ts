import type { QrCodeId } from '../common/ids/resource-ids';
import type { ScanBatch } from './scan-batch';

/**
 * Stores batches taken from a staging, and reports those Postgres refused as data (they are set
 * aside, not retried for ever). Provided by the scan buffer: it runs under the buffer's gate, so a
 * read of `scans` never sees a batch both stored and staged.
 */
export type StagedBatchStore = (batches: ScanBatch[], settle: () => Promise<void>) => Promise<{ refused: ScanBatch[] }>;

/**
 * Where batches wait that Postgres did not take when they were handed on (it was down, slow or
 * unreachable): Redis, shared by every instance (RedisScanStaging), or a file in DATA_DIR that
 * outlives the process (FileScanStaging). Every staged batch keeps counting in `scans` (pending
 * counts) until a drain stores it. Storing is idempotent by batch id, so a batch drained twice
 * (a crash between its commit and its removal) is stored once.
 */
export interface ScanStaging {
  readonly name: string;
  /** Whether it can take batches now (Redis connected; a file always can, until the disk fails). */
  available(): boolean;
  /** Keeps batches, with their pending counts, until a drain stores them. Throws when it cannot. */
  stage(batches: ScanBatch[]): Promise<void>;
  /** Non-bot scans of these codes staged and not yet stored. */
  pendingCounts(codeIds: QrCodeId[]): Promise<Map<QrCodeId, number>>;
  /** Moves staged batches to `store` while there are any (and `deadline`, epoch ms, is not past); returns how many it moved. */
  drain(store: StagedBatchStore, deadline?: number): Promise<number>;
  /** Keeps batches that can never be stored out of the way, for an operator to look at. */
  setAside(batches: ScanBatch[]): Promise<void>;
}

/** The non-bot scans per code of batches, to add to or take from pending counts. */
export function addCounts(counts: Map<QrCodeId, number>, batches: readonly ScanBatch[], sign: 1 | -1): void {
  for (const batch of batches) {
    for (const { codeId, scans } of batch.codes) {
      if (scans === 0) continue;
      const left = (counts.get(codeId) ?? 0) + sign * scans;
      if (left > 0) counts.set(codeId, left);
      else counts.delete(codeId);
    }
  }
}
