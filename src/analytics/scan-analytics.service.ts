import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import type { ScanAnalyticsQuery } from './dto/scan-analytics.query';
import { SCAN_ANALYTICS_READER, type ScanAnalyticsReader } from './scan-analytics-reader';
import { toScanAnalyticsView } from './scan-analytics.representation';
import { resolveScanWindow } from './scan-range';

/**
 * Scan analytics of one code (docs/scans-and-privacy.md). Reads stored scan events only: scans
 * still in the scan buffer appear once it stores them (every 100 ms while the database is up), so
 * analytics lag the redirect slightly, while the code's `scans` field already includes them. The
 * request never flushes the buffer.
 */
@Injectable()
export class ScanAnalyticsService {
  constructor(@Inject(SCAN_ANALYTICS_READER) private readonly repository: ScanAnalyticsReader) {}

  async scans(accountId: AccountId, codeId: QrCodeId, query: ScanAnalyticsQuery, now = new Date()) {
    const check = resolveScanWindow(query, now);
    if (!check.ok) throw new ValidationFailedException(check.errors);
    const aggregates = await this.repository.aggregate(accountId, codeId, check.window);
    // Same answer as GET /qrcodes/:id for a missing code or another account's.
    if (!aggregates) throw new NotFoundException('QR code not found');
    return toScanAnalyticsView(codeId, check.window, aggregates);
  }
}
