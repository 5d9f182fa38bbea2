import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Database } from '../infra/database/database.service';
import type { TransactionOptions } from '../infra/database/sql-session';
import type { AccountId } from '../common/ids/account-id';
import type { FolderId, QrCodeId } from '../common/ids/resource-ids';
import { SCAN_EVENT_COLUMNS, type ScanBatch, sumByCode } from './scan-batch';
import { StoredScanListeners, StoredScans } from './stored-scans';

interface LockedCode {
  id: QrCodeId;
  account_id: AccountId;
  folder_id: FolderId | null;
  short_code: string | null;
}

const VISITOR_SECRET = 'visitor_hash_secret';

const CLAIM_BATCHES = `INSERT INTO scan_batches (id) SELECT unnest($1::uuid[]) ON CONFLICT (id) DO NOTHING RETURNING id::text AS id`;
/** Each code once, in id order (no deadlock between stores), in place of a foreign-key check per row. */
const LOCK_CODES =
  'SELECT id::text AS id, account_id::text AS account_id, folder_id::text AS folder_id, short_code ' +
  'FROM qr_codes WHERE id = ANY($1::uuid[]) ORDER BY id FOR KEY SHARE';
/** The COPY of rows filling the first `columns` of SCAN_EVENT_COLUMNS (ScanBatch.columns). */
const copyScanEvents = (columns: number) => `COPY scan_events (${SCAN_EVENT_COLUMNS.slice(0, columns).join(', ')}) FROM STDIN`;
const DROP_SCANS_OF = `DELETE FROM scan_events WHERE qr_code_id = ANY($1::uuid[])`;
/**
 * The UPDATE below locks rows in whatever order its plan visits them: taken here in id order first,
 * so concurrent stores never wait on each other in a cycle.
 */
const LOCK_COUNTERS = `SELECT id FROM qr_codes WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`;
const ADD_SCANS = `UPDATE qr_codes q SET scans = q.scans + c.n FROM unnest($1::uuid[], $2::bigint[]) AS c(id, n) WHERE q.id = c.id`;

/**
 * Scan persistence: batched and idempotent, so storing a batch again after a crash or a lost
 * commit answer counts nothing twice. Runs on the scans pool (its own connections and statement
 * timeout, DB_SCAN_STORE_TIMEOUT_MS), outside Prisma: COPY is the cheapest way in, and Prisma
 * would copy and re-encode the batches' large text.
 */
@Injectable()
export class ScanStoreRepository {
  constructor(
    private readonly database: Database,
    private readonly listeners: StoredScanListeners,
  ) {}

  /**
   * Stores batches of scans in one transaction: claims their ids (a batch already stored, or given
   * twice, is stored once), locks each of their codes once (FOR KEY SHARE), COPYs their rows, drops
   * the rows of codes deleted meanwhile, and adds each code's scans to its `scans`. No row lock is
   * held per scan. A delete of a code waits for the lock, and its trigger then removes what this
   * stored. Listeners (StoredScanListeners: webhook events) write in the same transaction. Returns
   * the rows stored now.
   */
  async storeBatches(batches: readonly ScanBatch[], options?: TransactionOptions): Promise<number> {
    if (batches.length === 0) return 0;
    return this.database.scans.transaction(async (tx) => {
      const claimed = new Set((await tx.query<{ id: string }>(CLAIM_BATCHES, [batches.map((batch) => batch.id)])).map((row) => row.id));
      // A batch staged twice (a write retried after its timeout) can come twice in one read: the first copy goes.
      const fresh = batches.filter((batch) => claimed.delete(batch.id));
      if (fresh.length === 0) return 0;
      const codes = sumByCode(fresh);
      const locked = await tx.query<LockedCode>(LOCK_CODES, [[...codes.keys()]]);
      const live = new Set(locked.map((row) => row.id));
      // One COPY per row format: every batch written now has all columns; one staged before an upgrade may have fewer.
      for (const columns of new Set(fresh.map((batch) => batch.columns)))
        await tx.copyFrom(
          copyScanEvents(columns),
          fresh.filter((batch) => batch.columns === columns).map((batch) => batch.rows),
        );
      const gone = [...codes.keys()].filter((id) => !live.has(id));
      if (gone.length > 0) await tx.query(DROP_SCANS_OF, [gone]);
      if (this.listeners.any) {
        const stored = new Map(locked.map((row) => [row.id, { accountId: row.account_id, folderId: row.folder_id, shortCode: row.short_code }]));
        await this.listeners.run(tx, new StoredScans(stored, fresh));
      }
      const counted = [...codes.values()].filter((code) => live.has(code.codeId) && code.scans > 0);
      if (counted.length > 0) {
        const ids = counted.map((code) => code.codeId);
        await tx.query(LOCK_COUNTERS, [ids]);
        await tx.query(ADD_SCANS, [ids, counted.map((code) => code.scans)]);
      }
      return [...codes.values()].reduce((sum, code) => sum + (live.has(code.codeId) ? code.rows : 0), 0);
    }, options);
  }

  /** Forgets the ids of batches stored before `cutoff`: a replay comes within seconds or at the next start, the ids would otherwise pile up. */
  async forgetBatchesStoredBefore(cutoff: Date): Promise<void> {
    await this.database.write.shared.deleteFrom('scan_batches').where('stored_at', '<', cutoff).execute();
  }

  /** The per-deployment secret behind visitor hashes, created on first use (the first instance wins). */
  async visitorSecret(): Promise<string> {
    const settings = this.database.write.shared;
    await settings
      .insertInto('service_settings')
      .values({ name: VISITOR_SECRET, value: randomBytes(32).toString('hex') })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
    const row = await settings.selectFrom('service_settings').select('value').where('name', '=', VISITOR_SECRET).executeTakeFirstOrThrow();
    return row.value;
  }
}
