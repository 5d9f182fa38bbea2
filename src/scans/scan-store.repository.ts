import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Database } from '../infra/database/database.service';
import type { SqlTransaction, TransactionOptions } from '../infra/database/sql-session';
import type { AccountId } from '../common/ids/account-id';
import type { FolderId, QrCodeId } from '../common/ids/resource-ids';
import { SCAN_EVENT_COLUMNS, type ScanBatch, sumByCode } from './scan-batch';
import { scanRollupDeltaOf, type ScanRollupDelta } from './scan-rollup-delta';
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

const NO_FOLDER = `'00000000-0000-0000-0000-000000000000'::uuid`;
/**
 * The rollups' totals (docs/scans-and-privacy.md#how-analytics-are-kept): visitor hashes not seen
 * yet today or yesterday become unique visitors; each code-day's counts are added to the code's
 * row and to its account's (folder, type) row, rows in key order (no deadlock between stores).
 * Codes deleted meanwhile are skipped by the join.
 */
const ADD_ROLLUP_DAYS = `
  WITH fresh AS (
    INSERT INTO scan_day_visitors (qr_code_id, day, visitor_hash)
    SELECT v.qr_code_id, v.day, substr(v.hashes, i * 32 + 1, 32)
    FROM unnest($5::uuid[], $6::date[], $7::text[]) AS v(qr_code_id, day, hashes)
    CROSS JOIN LATERAL generate_series(0, length(v.hashes) / 32 - 1) AS i
    WHERE v.day >= (now() AT TIME ZONE 'UTC')::date - 1
    ORDER BY 1, 2, 3
    ON CONFLICT DO NOTHING RETURNING qr_code_id, day
  ),
  fresh_counts AS (SELECT qr_code_id, day, count(*)::int AS n FROM fresh GROUP BY 1, 2),
  deltas AS (
    SELECT d.qr_code_id, d.day, q.account_id, coalesce(q.folder_id, ${NO_FOLDER}) AS folder_key, q.type AS code_type,
      d.scans, d.bot_scans, coalesce(f.n, 0) AS unique_visitors
    FROM unnest($1::uuid[], $2::date[], $3::int[], $4::int[]) AS d(qr_code_id, day, scans, bot_scans)
    JOIN qr_codes q ON q.id = d.qr_code_id
    LEFT JOIN fresh_counts f ON f.qr_code_id = d.qr_code_id AND f.day = d.day
  ),
  code_days AS (
    INSERT INTO scan_code_days AS c (qr_code_id, day, account_id, scans, bot_scans, unique_visitors)
    SELECT qr_code_id, day, account_id, scans, bot_scans, unique_visitors FROM deltas ORDER BY 1, 2
    ON CONFLICT (qr_code_id, day) DO UPDATE
      SET scans = c.scans + EXCLUDED.scans, bot_scans = c.bot_scans + EXCLUDED.bot_scans,
        unique_visitors = c.unique_visitors + EXCLUDED.unique_visitors
  )
  INSERT INTO scan_account_days AS a (account_id, day, folder_key, code_type, scans, bot_scans, unique_visitors)
  SELECT account_id, day, folder_key, code_type, sum(scans), sum(bot_scans), sum(unique_visitors) FROM deltas
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (account_id, day, folder_key, code_type) DO UPDATE
    SET scans = a.scans + EXCLUDED.scans, bot_scans = a.bot_scans + EXCLUDED.bot_scans,
      unique_visitors = a.unique_visitors + EXCLUDED.unique_visitors`;

/** The rollups' dimension values, referrers mapped to their hosts here (scan_referrer_host), to the code's rows and its account's. */
const ADD_ROLLUP_VALUES = `
  WITH deltas AS (
    SELECT v.qr_code_id, v.day, v.dimension, CASE WHEN v.dimension = 'referrer' THEN scan_referrer_host(v.value) ELSE v.value END AS value,
      v.detail, sum(v.scans)::int AS scans
    FROM unnest($1::uuid[], $2::date[], $3::text[], $4::text[], $5::text[], $6::int[]) AS v(qr_code_id, day, dimension, value, detail, scans)
    GROUP BY 1, 2, 3, 4, 5
  ),
  located AS (SELECT d.*, q.account_id FROM deltas d JOIN qr_codes q ON q.id = d.qr_code_id),
  code_values AS (
    INSERT INTO scan_code_day_values AS c (qr_code_id, day, dimension, value, detail, scans)
    SELECT qr_code_id, day, dimension, value, detail, scans FROM located ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (qr_code_id, day, dimension, value, detail) DO UPDATE SET scans = c.scans + EXCLUDED.scans
  )
  INSERT INTO scan_account_day_values AS a (account_id, day, dimension, value, detail, scans)
  SELECT account_id, day, dimension, value, detail, sum(scans) FROM located
  GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (account_id, day, dimension, value, detail) DO UPDATE SET scans = a.scans + EXCLUDED.scans`;

/** Days whose visitor hashes are no longer kept (before yesterday): their unique visitors are recounted from scan_events. */
const RECOUNT_OLD_VISITORS = `
  SELECT scan_rollups_recount_visitors(array_agg(qr_code_id), array_agg(day))
  FROM unnest($1::uuid[], $2::date[]) AS d(qr_code_id, day)
  WHERE day < (now() AT TIME ZONE 'UTC')::date - 1
  HAVING count(*) > 0`;

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
   * the rows of codes deleted meanwhile, adds each code's scans to its `scans` and the rows to the
   * daily rollups (docs/scans-and-privacy.md#how-analytics-are-kept). No row lock is held per scan.
   * A delete of a code waits for the lock, and its trigger then removes what this
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
      // After the codes' row locks: a folder move locks its code's row, then its account's rollup rows; so does this.
      await this.addToRollups(tx, scanRollupDeltaOf(fresh, live));
      return [...codes.values()].reduce((sum, code) => sum + (live.has(code.codeId) ? code.rows : 0), 0);
    }, options);
  }

  /** Adds a store's rows to the daily rollups, in its transaction: the rollups hold exactly what scan_events holds. */
  private async addToRollups(tx: SqlTransaction, delta: ScanRollupDelta): Promise<void> {
    if (delta.earliestDay === null) return;
    const { days, values, visitors } = delta;
    await tx.query(ADD_ROLLUP_DAYS, [days.codeIds, days.days, days.scans, days.botScans, visitors.codeIds, visitors.days, visitors.hashes]);
    if (values.codeIds.length > 0)
      await tx.query(ADD_ROLLUP_VALUES, [values.codeIds, values.days, values.dimensions, values.values, values.details, values.scans]);
    // Scans of a day before today (UTC) are rare: stored late (staged through an outage) or just after midnight.
    if (delta.earliestDay < new Date().toISOString().slice(0, 10)) await tx.query(RECOUNT_OLD_VISITORS, [days.codeIds, days.days]);
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
