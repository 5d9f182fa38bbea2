import { Injectable, Logger } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import type { Tables } from '../infra/database/tables';
import type { QrCodeRecord } from './qr-code.record';

/** The fields a client can change; `updated` events name those that changed. */
export type QrCodeField =
  | 'name'
  | 'content'
  | 'style'
  | 'folder_id'
  | 'is_dynamic'
  | 'status'
  | 'expires_at'
  | 'rules'
  | 'max_scans'
  | 'fallback_url'
  | 'password'
  | 'utm'
  | 'scan_retention_days'
  | 'domain_id'
  | 'short_code';

/** An update that restores a version of the code's history: the version restored, and the one its update recorded (set by the history). */
export interface RestoreMark {
  from: number;
  recorded?: number;
}

/**
 * What happened to an account's codes, as one write of the API did it (`code`: the code after an
 * update, as it was before a delete; `before`: the code as the update found it, under its lock;
 * `bulk`: made by one bulk request).
 */
export type QrCodeChanged =
  | { kind: 'created'; accountId: AccountId; codes: QrCodeRecord[]; bulk: boolean }
  | {
      kind: 'updated';
      accountId: AccountId;
      codeId: QrCodeId;
      shortCode: string | null;
      changed: QrCodeField[];
      renderVersionChanged: boolean;
      before: QrCodeRecord;
      code: QrCodeRecord;
      /** the update restores a version of the code's history */
      restoring?: RestoreMark;
    }
  | { kind: 'deleted'; accountId: AccountId; codeId: QrCodeId; shortCode: string | null; code: QrCodeRecord };

type CommittedListener = (change: QrCodeChanged) => Promise<void> | void;
type TransactionListener = (tx: Tables, change: QrCodeChanged) => Promise<void>;

/**
 * How the QR code module tells the rest of the app what changed, without knowing who listens:
 * modules that keep something derived from codes (cached images and their sources, resolved short
 * links, search results) subscribe and drop their own entries. Listeners of `inTransaction` run in
 * the transaction of the change (what must commit with it, or not at all); listeners of
 * `committed` run after the commit, before the API answers, so a client reads its own writes.
 */
@Injectable()
export class QrCodeEvents {
  private readonly logger = new Logger('QrCodeEvents');
  private readonly committedListeners: CommittedListener[] = [];
  private readonly transactionListeners: TransactionListener[] = [];

  onCommitted(listener: CommittedListener): void {
    this.committedListeners.push(listener);
  }

  inTransaction(listener: TransactionListener): void {
    this.transactionListeners.push(listener);
  }

  /** Called by the QR code service inside the transaction of a change. */
  async recordInTransaction(tx: Tables, change: QrCodeChanged): Promise<void> {
    for (const listener of this.transactionListeners) await listener(tx, change);
  }

  /**
   * Called by the QR code service once a change committed. A listener that fails is logged and the
   * others still run: the change stands, and what that listener keeps expires on its own.
   */
  async publishCommitted(change: QrCodeChanged): Promise<void> {
    await Promise.all(
      this.committedListeners.map(async (listener) => {
        try {
          await listener(change);
        } catch (error) {
          this.logger.error(`A listener of ${change.kind} codes failed: ${(error as Error).message}`);
        }
      }),
    );
  }
}
