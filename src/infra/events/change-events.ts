import { Logger } from '@nestjs/common';
import type { Tables } from '../database/tables';

/**
 * The one event-bus shape of the app (docs/architecture.md#dependencies-point-one-way): a module
 * tells the modules above it what changed without knowing who listens. Listeners of
 * `inTransaction` run inside the change's transaction, one after the other (what must commit with
 * the change or not at all: an outbox row, an audit entry, a history version); listeners of
 * `onCommitted` run once it committed, before the API answers, so a client reads its own writes
 * (caches dropped). A committed listener that fails is logged and the others still run: the change
 * stands, and what that listener keeps expires on its own.
 *
 * A module's events are a subclass naming its change (`QrCodeEvents extends ChangeEvents<QrCodeChanged>`),
 * provided by the module that makes the changes. `Tx` is the transaction its listeners write in.
 */
export class ChangeEvents<Change extends { kind: string }, Tx = Tables> {
  private readonly logger: Logger;
  private readonly committedListeners: Array<(change: Change) => Promise<void> | void> = [];
  private readonly transactionListeners: Array<(tx: Tx, change: Change) => Promise<void>> = [];

  /** `name`: the logger's; `things`: what changes, as a failed listener's log line names it ("codes"). */
  constructor(
    name: string,
    private readonly things: string,
  ) {
    this.logger = new Logger(name);
  }

  onCommitted(listener: (change: Change) => Promise<void> | void): void {
    this.committedListeners.push(listener);
  }

  inTransaction(listener: (tx: Tx, change: Change) => Promise<void>): void {
    this.transactionListeners.push(listener);
  }

  /** Whether anything listens in the transaction (a publisher may skip preparing a change nobody reads). */
  get hasTransactionListeners(): boolean {
    return this.transactionListeners.length > 0;
  }

  /** Called by the publisher inside the transaction of a change. */
  async recordInTransaction(tx: Tx, change: Change): Promise<void> {
    for (const listener of this.transactionListeners) await listener(tx, change);
  }

  /** Called by the publisher once the change committed. */
  async publishCommitted(change: Change): Promise<void> {
    await Promise.all(
      this.committedListeners.map(async (listener) => {
        try {
          await listener(change);
        } catch (error) {
          this.logger.error(`A listener of ${change.kind} ${this.things} failed: ${(error as Error).message}`);
        }
      }),
    );
  }
}
