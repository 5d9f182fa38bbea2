import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { FoldersService, NOT_YOUR_FOLDER } from '../folders/folders.service';
import type { AccountAnalyticsQuery } from './dto/account-analytics.query';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import type { ScanAnalyticsQuery } from './dto/scan-analytics.query';
import type { AccountScanFilter } from './scan-aggregates';
import { SCAN_ANALYTICS_READER, type ScanAnalyticsReader } from './scan-analytics-reader';
import { toAccountAnalyticsView, toScanAnalyticsView } from './scan-analytics.representation';
import { ScanAnalyticsRepository } from './scan-analytics.repository';
import { ruleNamesOf } from './rule-names';
import { resolveScanWindow, type ScanWindow } from './scan-range';
import { widenToWholeDays } from './scan-window-plan';

/**
 * Scan analytics of one code (docs/scans-and-privacy.md). Reads stored scan events only: scans
 * still in the scan buffer appear once it stores them (every 100 ms while the database is up), so
 * analytics lag the redirect slightly, while the code's `scans` field already includes them. The
 * request never flushes the buffer.
 */
@Injectable()
export class ScanAnalyticsService {
  constructor(
    @Inject(SCAN_ANALYTICS_READER) private readonly repository: ScanAnalyticsReader,
    private readonly folders: FoldersService,
    private readonly postgres: ScanAnalyticsRepository,
  ) {}

  /**
   * Unique visitors per code over a window of `from`/`to` (absent: the last 30 days), as the report
   * CSV shows them (docs/exports-and-imports.md#the-report-csv). Checks the window, naming the field.
   * Read from PostgreSQL's rollups, which every deployment keeps (ClickHouse or not).
   */
  uniqueVisitorsOf(accountId: AccountId, codeIds: readonly QrCodeId[], window: ScanWindow): Promise<Map<QrCodeId, number>> {
    return this.postgres.uniqueVisitorsOf(accountId, codeIds, window);
  }

  /** The window of `from`/`to` in whole UTC days' terms (interval day, zone UTC), or a 400 naming the field. */
  reportWindow(query: { from?: string; to?: string }, now = new Date()): ScanWindow {
    const check = resolveScanWindow({ from: query.from, to: query.to, interval: 'day' }, now);
    if (!check.ok) throw new ValidationFailedException(check.errors);
    return check.window;
  }

  async scans(accountId: AccountId, codeId: QrCodeId, query: ScanAnalyticsQuery, now = new Date()) {
    const check = resolveScanWindow(query, now);
    if (!check.ok) throw new ValidationFailedException(check.errors);
    const [aggregates, rules] = await Promise.all([
      this.repository.aggregate(accountId, codeId, check.window),
      this.postgres.linkRulesOf(accountId, codeId),
    ]);
    // Same answer as GET /qrcodes/:id for a missing code or another account's.
    if (!aggregates) throw new NotFoundException('QR code not found');
    return toScanAnalyticsView(codeId, check.window, aggregates, ruleNamesOf(rules));
  }

  /**
   * Account-wide analytics (GET /analytics): every code of the account in the folder and type asked
   * for, over whole days of the zone (whole hours by hour): the window is widened to them.
   * `narrower` narrows further, by what the API has no parameter for (a tag's stats page).
   */
  async account(accountId: AccountId, query: AccountAnalyticsQuery, now = new Date(), narrower: Pick<AccountScanFilter, 'tagId'> = {}) {
    const check = resolveScanWindow(query, now);
    if (!check.ok) throw new ValidationFailedException(check.errors);
    if (query.folder_id && !(await this.folders.ownedAmong(accountId, [query.folder_id])).has(query.folder_id))
      throw Object.assign(new NotFoundException('Folder not found'), { fieldErrors: [NOT_YOUR_FOLDER] });
    const filter: AccountScanFilter = { folderId: query.folder_id, type: query.type, ...narrower };
    const window = widenToWholeDays(check.window);
    const aggregates = await this.repository.accountAggregate(accountId, filter, window);
    return toAccountAnalyticsView(window, filter, aggregates);
  }
}
