import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AccountId } from '../common/auth/account-id';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { ResourceIdPipe } from '../common/validation/resource-id.pipe';
import { ScanAnalyticsQuery } from './dto/scan-analytics.query';
import { ScanAnalyticsView } from './dto/scan-analytics.views';
import { ScanAnalyticsService } from './scan-analytics.service';

const qrCodeId = new ResourceIdPipe('QR code');

@ApiTags('qrcodes')
@ApiSecurity('api-key')
@Controller('api/v1/qrcodes')
export class ScanAnalyticsController {
  constructor(private readonly analytics: ScanAnalyticsService) {}

  @Get(':id/scans')
  @ApiOperation({
    summary: 'Scan analytics of a QR code',
    description:
      'Totals, unique visitors, a zero-filled time series (UTC buckets) and top-10 breakdowns by device, OS, browser and referrer host ' +
      'for scans with from <= time < to. Bot scans are counted apart and excluded from everything else. ' +
      'Scans reach analytics when the scan buffer is flushed, about a second after the redirect.',
  })
  @ApiOkResponse({ type: ScanAnalyticsView })
  scans(@CurrentAccount() account: AccountId, @Param('id', qrCodeId) id: string, @Query() query: ScanAnalyticsQuery) {
    return this.analytics.scans(account, id, query);
  }
}
