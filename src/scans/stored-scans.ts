import { Injectable } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { FolderId, QrCodeId } from '../common/ids/resource-ids';
import type { SqlTransaction } from '../infra/database/sql-session';
import { type BatchRowKeys, readRowsOf, rowKeysOf, type ScanBatch, type ScanRow } from './scan-batch';

/** A code whose scans a store wrote, as the store's lock read it. */
export interface StoredCode {
  accountId: AccountId;
  folderId: FolderId | null;
  shortCode: string | null;
}

/** What one store transaction wrote: the codes (those that still exist) and, on demand, their rows. */
export class StoredScans {
  constructor(
    readonly codes: ReadonlyMap<QrCodeId, StoredCode>,
    private readonly batches: readonly ScanBatch[],
  ) {}

  /** The stored rows of these codes, in the order they were recorded. */
  rowsOf(codeIds: ReadonlySet<QrCodeId>): ScanRow[] {
    if (codeIds.size === 0) return [];
    return this.batches.flatMap((batch) => (batch.codes.some((code) => codeIds.has(code.codeId)) ? readRowsOf(batch, codeIds) : []));
  }

  /** Each stored batch's rows by their keys in scan_events (for an export that reads them back once committed). */
  rowKeys(): BatchRowKeys[] {
    return this.batches.map(rowKeysOf).filter((keys) => keys !== null);
  }
}

type StoredScansListener = (tx: SqlTransaction, stored: StoredScans) => Promise<void>;

/**
 * How the scan store tells other modules what it stored, inside its transaction (what must commit
 * with the scans or not at all, such as webhook events), without knowing who listens. With no
 * listener a store does nothing more.
 */
@Injectable()
export class StoredScanListeners {
  private readonly listeners: StoredScansListener[] = [];

  inTransaction(listener: StoredScansListener): void {
    this.listeners.push(listener);
  }

  get any(): boolean {
    return this.listeners.length > 0;
  }

  async run(tx: SqlTransaction, stored: StoredScans): Promise<void> {
    for (const listener of this.listeners) await listener(tx, stored);
  }
}
