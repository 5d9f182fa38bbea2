import { Injectable } from '@nestjs/common';
import type { QrCodeId } from '../../common/ids/resource-ids';
import { ClickHouseConnection } from '../../infra/clickhouse/clickhouse-connection';
import { integerLiteral, uuidLiteral } from '../../infra/clickhouse/clickhouse-literals';

/**
 * Erasing a code's scans in ClickHouse (docs/clickhouse.md#erasure): a mutation
 * (`ALTER TABLE … DELETE`, ClickHouse 18.16 and later), which ClickHouse applies in the background,
 * part by part, and lists in system.mutations until it is done.
 */
@Injectable()
export class ClickHouseScanErasuresRepository {
  constructor(private readonly clickhouse: ClickHouseConnection) {}

  private get table(): string {
    return `${this.clickhouse.database}.scan_events`;
  }

  /** Asks ClickHouse to delete the code's rows scanned before `before` (to the millisecond). Idempotent: a second one finds nothing. */
  async erase(codeId: QrCodeId, before: Date): Promise<void> {
    await this.clickhouse.command(
      `ALTER TABLE ${this.table} DELETE WHERE qr_code_id = ${uuidLiteral(codeId)} AND scanned_at_ms < ${integerLiteral(before.getTime())}`,
    );
  }

  /**
   * Whether a mutation of the code's rows is still being applied. ClickHouse lists a mutation's
   * command as it was parsed, with the code's UUID in it (`DELETE WHERE (qr_code_id = toUUID('…')) AND …`), checked as one
   * before it is inlined. Any database's table of that name counts: the code's UUID is the deployment's alone.
   */
  async erasing(codeId: QrCodeId): Promise<boolean> {
    // The checked literal's string: 'xxxxxxxx-…'.
    const uuidText = uuidLiteral(codeId).replace(/^toUUID\(|\)$/g, '');
    const rows = await this.clickhouse.select<{ n: string | number }>(
      `SELECT count() AS n FROM system.mutations
       WHERE table = 'scan_events' AND is_done = 0 AND position(command, ${uuidText}) > 0`,
    );
    return Number(rows[0]?.n ?? 0) > 0;
  }
}
