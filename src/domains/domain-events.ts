import { Injectable, Logger } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import type { Tables } from '../infra/database/tables';
import type { DomainRecord } from './domain.record';

/** A code moved off a deleted domain back to the default redirect host (its short code as it is now). */
export interface MovedCode {
  id: QrCodeId;
  shortCode: string;
}

/**
 * What happened to an account's domains: `verified` (proven now, or back from failing), `failing`
 * (its record missing for 7 days), `updated` (its redirect URLs), `deleted` (with the codes moved
 * off it).
 */
export type DomainChanged =
  | { kind: 'verified' | 'failing' | 'updated'; accountId: AccountId; domain: DomainRecord }
  | { kind: 'deleted'; accountId: AccountId; domain: DomainRecord; moved: MovedCode[] };

type CommittedListener = (change: DomainChanged) => Promise<void> | void;
type TransactionListener = (tx: Tables, change: DomainChanged) => Promise<void>;

/**
 * How the domains module tells the modules above it what changed (as QrCodeEvents does for codes):
 * the webhook outbox writes `domain.verified` and `domain.failing` in the change's transaction; the
 * redirect host drops the hostname's cached answer, and the image module the sources of moved
 * codes, once it committed.
 */
@Injectable()
export class DomainEvents {
  private readonly logger = new Logger('DomainEvents');
  private readonly committedListeners: CommittedListener[] = [];
  private readonly transactionListeners: TransactionListener[] = [];

  onCommitted(listener: CommittedListener): void {
    this.committedListeners.push(listener);
  }

  inTransaction(listener: TransactionListener): void {
    this.transactionListeners.push(listener);
  }

  async recordInTransaction(tx: Tables, change: DomainChanged): Promise<void> {
    for (const listener of this.transactionListeners) await listener(tx, change);
  }

  /** A listener that fails is logged; the others still run (what it keeps expires on its own). */
  async publishCommitted(change: DomainChanged): Promise<void> {
    await Promise.all(
      this.committedListeners.map(async (listener) => {
        try {
          await listener(change);
        } catch (error) {
          this.logger.error(`A listener of ${change.kind} domains failed: ${(error as Error).message}`);
        }
      }),
    );
  }
}
