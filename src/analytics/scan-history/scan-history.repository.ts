import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { AccountId } from '../../common/ids/account-id';
import type { QrCodeId } from '../../common/ids/resource-ids';
import { Database } from '../../infra/database/database.service';
import type { QrCodeRecord } from '../../qrcodes/qr-code.record';
import type { Tables } from '../../infra/database/tables';
import type { ExportedScanRow } from './scan-csv';
import type { ScanExportWindow } from './scan-history-window';

/** A page's row: the CSV's fields and the rest of its key (the time is the other part). */
export interface ScanPageRow extends ExportedScanRow {
  event_id: string;
}

/** Where the last page ended: the primary key after (qr_code_id, scanned_at, event_id). */
export interface ScanPageKey {
  time: string;
  eventId: string;
}

/** The UTC days of an erasure (scan-history-window.ts's erasureDays) and whether the cut day's visitor hashes are kept. */
export interface ErasurePlan {
  before: Date;
  floorDay: string;
  ceilDay: string;
  cut: boolean;
  keepCutDayVisitors: boolean;
}

/**
 * A code's raw scan history (docs/scans-and-privacy.md#exporting-and-erasing-a-codes-scans): read a
 * page at a time by key for the CSV export, and erased with its rollups adjusted. scan_events and
 * the per-code rollup tables are reached only through the account's code (forAccount), in the query.
 */
@Injectable()
export class ScanHistoryRepository {
  constructor(private readonly database: Database) {}

  /** The code's smart-link rules (for their names), or null when the account (within the key's folders) has no such code. */
  async linkRulesOf(accountId: AccountId, codeId: QrCodeId): Promise<QrCodeRecord['rules'] | null> {
    const code = await this.database.read
      .forAccount(accountId)
      .selectFrom('qr_codes')
      .select('link_rules')
      .where('id', '=', codeId)
      .executeTakeFirst();
    return code ? ((code.link_rules as QrCodeRecord['rules'] | null) ?? []) : null;
  }

  /**
   * Up to `limit` of the code's scans in the window after `after`, in primary-key order (time, then
   * event id): a range scan of the key in each month's partition, whatever the page's depth.
   */
  async page(accountId: AccountId, codeId: QrCodeId, window: ScanExportWindow, after: ScanPageKey | null, limit: number): Promise<ScanPageRow[]> {
    const codes = this.database.read.forAccount(accountId);
    const owned = codes.selectFrom('qr_codes').select('id').where('id', '=', codeId);
    const from = window.from.toISOString();
    const to = window.to.toISOString();
    const resume = after ? sql`AND (s.scanned_at, s.event_id) > (${after.time}::timestamptz, ${after.eventId}::uuid)` : sql``;
    return codes.execute(sql<ScanPageRow>`
      WITH owned AS (${owned})
      SELECT to_char(s.scanned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS time, s.event_id::text AS event_id,
        s.device::text AS device, s.os::text AS os, s.browser::text AS browser, s.referrer::text AS referrer, s.country::text AS country,
        s.city::text AS city, s.rule_index::int AS rule_index, s.arm_index::int AS arm_index, s.is_bot
      FROM scan_events s JOIN owned ON owned.id = s.qr_code_id
      WHERE s.qr_code_id = ${codeId}::uuid AND s.scanned_at >= ${from}::timestamptz AND s.scanned_at < ${to}::timestamptz ${resume}
      ORDER BY s.scanned_at, s.event_id
      LIMIT ${limit}`);
  }

  /**
   * Erases the code's scans before `plan.before` in the caller's transaction, the rollups following
   * (the migration's SQL functions): the code's rollups of the days up to the cut day go (and leave
   * its account's), the events go, the cut day's rollups are built again from the rows left, and the
   * visitor hashes of those days go (the cut day's are written again from its rows left, when that
   * day still keeps them). The code is locked first (FOR UPDATE, which a scan batch's FOR KEY SHARE
   * waits for), so no batch adds to these rollups meanwhile. Null when the account has no such code.
   */
  async erase(tx: Tables, accountId: AccountId, codeId: QrCodeId, plan: ErasurePlan): Promise<number | null> {
    const codes = tx.forAccount(accountId);
    const locked = await codes.selectFrom('qr_codes').select('id').where('id', '=', codeId).forUpdate().executeTakeFirst();
    if (!locked) return null;
    const owned = codes.selectFrom('qr_codes').select('id').where('id', '=', codeId);
    const before = plan.before.toISOString();
    await codes.execute(sql`SELECT scan_rollups_remove(ARRAY(${owned}), '-infinity'::date, ${plan.ceilDay}::date)`);
    const [deleted] = await codes.execute(sql<{ n: number | string }>`
      WITH owned AS (${owned}),
      gone AS (DELETE FROM scan_events s USING owned WHERE s.qr_code_id = owned.id AND s.scanned_at < ${before}::timestamptz RETURNING 1)
      SELECT count(*)::bigint AS n FROM gone`);
    if (plan.cut) await codes.execute(sql`SELECT scan_rollups_build(ARRAY(${owned}), ${plan.floorDay}::date, ${plan.ceilDay}::date)`);
    await codes.execute(sql`
      WITH owned AS (${owned})
      DELETE FROM scan_day_visitors v USING owned WHERE v.qr_code_id = owned.id AND v.day < ${plan.ceilDay}::date`);
    if (plan.cut && plan.keepCutDayVisitors) {
      await codes.execute(sql`
        WITH owned AS (${owned})
        INSERT INTO scan_day_visitors (qr_code_id, day, visitor_hash)
        SELECT DISTINCT s.qr_code_id, ${plan.floorDay}::date, s.visitor_hash FROM scan_events s JOIN owned ON owned.id = s.qr_code_id
        WHERE s.qr_code_id = ${codeId}::uuid AND NOT s.is_bot
          AND s.scanned_at >= ${plan.floorDay}::date::timestamp AT TIME ZONE 'UTC'
          AND s.scanned_at < ${plan.ceilDay}::date::timestamp AT TIME ZONE 'UTC'`);
    }
    return Number(deleted.n);
  }
}
