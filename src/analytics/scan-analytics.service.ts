import { Injectable, NotFoundException } from '@nestjs/common';
import { AccountId } from '../common/auth/account-id';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import type { ScanAnalyticsQuery } from './dto/scan-analytics.query';
import { ScanAnalyticsRepository } from './scan-analytics.repository';
import { toScanAnalyticsView } from './scan-analytics.representation';
import { resolveScanWindow } from './scan-range';

/**
 * Scan analytics of one code (design §6). Reads stored scan events only: scans still in the scan
 * buffer appear once it is flushed (about every second), so analytics lag the redirect by ~1–2 s,
 * while the code's `scans` field already includes them. The request never flushes the buffer.
 */
@Injectable()
export class ScanAnalyticsService {
  constructor(private readonly repository: ScanAnalyticsRepository) {}

  async scans(accountId: AccountId, codeId: string, query: ScanAnalyticsQuery, now = new Date()) {
    const check = resolveScanWindow(query, now);
    if (!check.ok) throw new ValidationFailedException(check.errors);
    const aggregates = await this.repository.aggregate(accountId, codeId, check.window);
    // Same answer as GET /qrcodes/:id for a missing code or another account's.
    if (!aggregates) throw new NotFoundException('QR code not found');
    return toScanAnalyticsView(codeId, check.window, aggregates);
  }
}
