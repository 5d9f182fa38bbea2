import { Inject, Injectable } from '@nestjs/common';
import type { QrCodeId } from '../../common/ids/resource-ids';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ClickHouseConnection, clickHouseTarget } from '../../infra/clickhouse/clickhouse-connection';
import { integerLiteral, uuidList } from '../../infra/clickhouse/clickhouse-literals';

/** A month partition of ClickHouse's scan_events: toYYYYMM(scanned_at). */
const MONTH = /^\d{6}$/;
const DATABASE_NAME = /^[A-Za-z0-9_]+$/;
/** Codes per condition of one DELETE mutation (a statement of a few tens of kilobytes). */
const CODES_PER_CONDITION = 1000;

/** Codes whose scans before `before` go. */
export interface CodesCutoff {
  codeIds: readonly QrCodeId[];
  before: Date;
}

/**
 * Retention in ClickHouse's copy of the scans (docs/clickhouse.md#retention): whole months dropped
 * (DROP PARTITION: no TTL on 18.16), and the scans of codes with a retention of their own deleted
 * by one mutation (ALTER TABLE … DELETE, rewritten in the background). A mutation rewrites parts,
 * so none is asked for while one is still under way or when no row matches.
 */
@Injectable()
export class ClickHouseRetentionRepository {
  private readonly databaseName: string;

  constructor(
    private readonly clickhouse: ClickHouseConnection,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const name = config.clickhouse ? clickHouseTarget(config.clickhouse.url).database : '';
    this.databaseName = DATABASE_NAME.test(name) ? name : '';
  }

  get configured(): boolean {
    return this.clickhouse.configured;
  }

  private get table(): string {
    return `${this.clickhouse.database}.scan_events`;
  }

  /** Drops the months entirely before `cutoff` (UTC); returns the partitions dropped (YYYYMM). */
  async dropMonthsBefore(cutoff: Date): Promise<string[]> {
    const keptFrom = cutoff.getUTCFullYear() * 100 + cutoff.getUTCMonth() + 1;
    const rows = await this.clickhouse.select<{ partition: string }>(
      `SELECT DISTINCT partition FROM system.parts WHERE database = '${this.databaseName}' AND table = 'scan_events' AND active`,
    );
    const dropped = rows.map((row) => String(row.partition)).filter((month) => MONTH.test(month) && Number(month) < keptFrom);
    for (const month of dropped.sort()) await this.clickhouse.command(`ALTER TABLE ${this.table} DROP PARTITION ${integerLiteral(Number(month))}`);
    return dropped;
  }

  /**
   * Deletes the scans of each group of codes before its cutoff, in one mutation; false when it asked
   * for none (nothing matches, or a mutation of the table is still under way: the next step looks again).
   */
  async deleteCodeScansBefore(cutoffs: readonly CodesCutoff[]): Promise<boolean> {
    const conditions = cutoffs.flatMap(({ codeIds, before }) => {
      const chunks: string[] = [];
      for (let start = 0; start < codeIds.length; start += CODES_PER_CONDITION)
        chunks.push(
          `(qr_code_id IN (${uuidList(codeIds.slice(start, start + CODES_PER_CONDITION))}) AND scanned_at_ms < ${integerLiteral(before.getTime())})`,
        );
      return chunks;
    });
    if (conditions.length === 0) return false;
    const where = conditions.join(' OR ');
    const [pending] = await this.clickhouse.select<{ n: string | number }>(
      `SELECT count() AS n FROM system.mutations WHERE database = '${this.databaseName}' AND table = 'scan_events' AND is_done = 0`,
    );
    if (Number(pending?.n ?? 0) > 0) return false;
    const [matching] = await this.clickhouse.select<{ n: string | number }>(`SELECT count() AS n FROM ${this.table} WHERE ${where}`);
    if (Number(matching?.n ?? 0) === 0) return false;
    await this.clickhouse.command(`ALTER TABLE ${this.table} DELETE WHERE ${where}`);
    return true;
  }
}
