import { Injectable, NotFoundException } from '@nestjs/common';
import type { AccountId } from '../../common/ids/account-id';
import type { Gs1ItemId } from '../../common/ids/resource-ids';
import { ValidationFailedException } from '../../common/validation/validation-failed.exception';
import type { ScanAnalyticsQuery } from '../../analytics/dto/scan-analytics.query';
import { resolveScanWindow } from '../../analytics/scan-range';
import { Gs1ItemsRepository } from '../items/gs1-items.repository';
import { Gs1ScansRepository } from './gs1-scans.repository';

/** An item's scans (GET /api/v1/gs1/items/:id/scans): the window as a code's, the report from gs1_scan_events. */
@Injectable()
export class Gs1ScansService {
  constructor(
    private readonly items: Gs1ItemsRepository,
    private readonly scans: Gs1ScansRepository,
  ) {}

  async report(accountId: AccountId, id: Gs1ItemId, query: ScanAnalyticsQuery) {
    const checked = resolveScanWindow(query, new Date());
    if (!checked.ok) throw new ValidationFailedException(checked.errors);
    if (!(await this.items.find(accountId, id))) throw new NotFoundException('GS1 item not found');
    const { window } = checked;
    const report = await this.scans.report(accountId, id, window);
    return { item_id: id, from: window.from.toISOString(), to: window.to.toISOString(), interval: window.interval, tz: window.timeZone, ...report };
  }
}
