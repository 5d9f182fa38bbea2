import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/time/clock';
import type { AccountId } from '../../common/ids/account-id';
import type { QrCodeId } from '../../common/ids/resource-ids';
import { collectGarbage } from '../../common/memory/garbage-collector';
import { ValidationFailedException } from '../../common/validation/validation-failed.exception';
import { AuditTrail } from '../../infra/audit/audit-trail';
import { ClickHouseConnection } from '../../infra/clickhouse/clickhouse-connection';
import { ClickHouseStatus } from '../../infra/clickhouse/clickhouse-status';
import { Database } from '../../infra/database/database.service';
import { currentRequest, runInRequestContext } from '../../infra/http/request-context';
import { ClickHouseErasureOutboxRepository } from '../clickhouse/clickhouse-erasure-outbox.repository';
import type { EraseScansQuery, ScanCsvQuery, ScansErasedView } from './dto/scan-history.dto';
import { type RuleNames, ruleNamesOf } from '../rule-names';
import { SCAN_CSV_HEADER, scanCsvLine } from './scan-csv';
import { erasureDays, resolveErasureBefore, resolveExportWindow, type ScanExportWindow, visitorsKeptFor } from './scan-history-window';
import { type ScanPageKey, type ScanPageRow, ScanHistoryRepository } from './scan-history.repository';

/** Scans read per query of the CSV export. */
const CSV_PAGE = 5000;
/**
 * A full collection after this much CSV, as the list export does (list-csv.service.ts): the written
 * pages live across a query and a socket write, long enough to be promoted, and V8 would let the old
 * generation fill with them.
 */
const CSV_COLLECT_BYTES = 4 * 1024 * 1024;

const codeNotFound = () => new NotFoundException('QR code not found');

/**
 * A code's raw scan history (docs/scans-and-privacy.md#exporting-and-erasing-a-codes-scans): the
 * CSV of its stored scans, streamed a page at a time, and the erasure of those before an instant,
 * its rollups adjusted, audited, and queued for ClickHouse's copy when there is one.
 */
@Injectable()
export class ScanHistoryService {
  constructor(
    private readonly history: ScanHistoryRepository,
    private readonly database: Database,
    private readonly audit: AuditTrail,
    private readonly clickhouse: ClickHouseConnection,
    private readonly clickhouseStatus: ClickHouseStatus,
    private readonly clickhouseErasures: ClickHouseErasureOutboxRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The CSV's lines, produced as the response is read. The window is checked (400) and the code
   * looked up (404) before the first line, so an error has its status; each page is read again
   * through the account's code, in the context of the request (the key's folders).
   */
  async csv(accountId: AccountId, codeId: QrCodeId, query: ScanCsvQuery): Promise<AsyncGenerator<string>> {
    const check = resolveExportWindow(query, this.clock.now());
    if (!check.ok) throw new ValidationFailedException(check.errors);
    const rules = await this.history.linkRulesOf(accountId, codeId);
    if (!rules) throw codeNotFound();
    return this.lines(accountId, codeId, check.value, ruleNamesOf(rules));
  }

  private async *lines(accountId: AccountId, codeId: QrCodeId, window: ScanExportWindow, names: RuleNames): AsyncGenerator<string> {
    const context = currentRequest();
    yield SCAN_CSV_HEADER;
    let after: ScanPageKey | null = null;
    let writtenSinceCollection = 0;
    for (;;) {
      const key: ScanPageKey | null = after;
      const read = (): Promise<ScanPageRow[]> => this.history.page(accountId, codeId, window, key, CSV_PAGE);
      const rows: ScanPageRow[] = context ? await runInRequestContext(context, read) : await read();
      if (rows.length === 0) return;
      let text = '';
      for (const row of rows) text += scanCsvLine(row, names);
      writtenSinceCollection += text.length;
      if (writtenSinceCollection >= CSV_COLLECT_BYTES) {
        writtenSinceCollection = 0;
        collectGarbage('major');
      }
      yield text;
      if (rows.length < CSV_PAGE) return;
      const last = rows[rows.length - 1];
      after = { time: last.time, eventId: last.event_id };
    }
  }

  /**
   * Erases the code's scans before `before` in one transaction: the events, the rollups rebuilt to
   * match, the visitor hashes of those days, an audit entry and, with ClickHouse, the erasure of its
   * copy queued. The code's `scans` counter is kept: it counts scans ever made.
   */
  async erase(accountId: AccountId, codeId: QrCodeId, query: EraseScansQuery): Promise<Omit<ScansErasedView, 'request_id'>> {
    const check = resolveErasureBefore(query.before);
    if (!check.ok) throw new ValidationFailedException(check.errors);
    const before = check.value;
    const days = erasureDays(before);
    const plan = {
      before,
      floorDay: days.floor,
      ceilDay: days.ceil,
      cut: days.cut,
      keepCutDayVisitors: visitorsKeptFor(days.floor, this.clock.now()),
    };
    // Before the commit: from then on this instance reads PostgreSQL until ClickHouse has erased its copy too.
    if (this.clickhouse.configured) this.clickhouseStatus.erasureQueued();
    const deleted = await this.database.transaction(async (tx) => {
      const count = await this.history.erase(tx, accountId, codeId, plan);
      if (count === null) throw codeNotFound();
      await this.audit.record(tx, {
        accountId,
        action: 'qrcode.erase_scans',
        resourceType: 'qrcode',
        resourceId: codeId,
        after: { before: before.toISOString(), deleted_events: count },
      });
      if (this.clickhouse.configured) await this.clickhouseErasures.record(tx, codeId, before);
      return count;
    });
    return { qr_code_id: codeId, before: before.toISOString(), deleted_events: deleted };
  }
}
