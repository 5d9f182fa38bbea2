import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { FoldersService, NOT_YOUR_FOLDER } from '../folders/folders.service';
import type { AccountAnalyticsQuery } from './dto/account-analytics.query';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import type { ScanAnalyticsQuery } from './dto/scan-analytics.query';
import { SCAN_ANALYTICS_READER, type ScanAnalyticsReader } from './scan-analytics-reader';
import { toAccountAnalyticsView, toScanAnalyticsView } from './scan-analytics.representation';
import { resolveScanWindow } from './scan-range';

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
  ) {}

  async scans(accountId: AccountId, codeId: QrCodeId, query: ScanAnalyticsQuery, now = new Date()) {
    const check = resolveScanWindow(query, now);
    if (!check.ok) throw new ValidationFailedException(check.errors);
    const aggregates = await this.repository.aggregate(accountId, codeId, check.window);
    // Same answer as GET /qrcodes/:id for a missing code or another account's.
    if (!aggregates) throw new NotFoundException('QR code not found');
    return toScanAnalyticsView(codeId, check.window, aggregates);
  }

  /** Account-wide analytics (GET /analytics): every code of the account in the folder and type asked for. */
  async account(accountId: AccountId, query: AccountAnalyticsQuery, now = new Date()) {
    const check = resolveScanWindow(query, now);
    if (!check.ok) throw new ValidationFailedException(check.errors);
    if (query.folder_id && !(await this.folders.ownedAmong(accountId, [query.folder_id])).has(query.folder_id))
      throw Object.assign(new NotFoundException('Folder not found'), { fieldErrors: [NOT_YOUR_FOLDER] });
    const filter = { folderId: query.folder_id, type: query.type };
    const aggregates = await this.repository.accountAggregate(accountId, filter, check.window);
    return toAccountAnalyticsView(check.window, filter, aggregates);
  }
}
