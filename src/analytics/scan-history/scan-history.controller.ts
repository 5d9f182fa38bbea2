import { Controller, Delete, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiSecurity, ApiTags, type ApiResponseOptions } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { sendDownload } from '../../infra/http/download';
import { CurrentAccount } from '../../common/auth/current-account.decorator';
import { RequiredScope } from '../../common/auth/required-scope.decorator';
import type { AccountId } from '../../common/ids/account-id';
import type { QrCodeId } from '../../common/ids/resource-ids';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses } from '../../common/openapi/error-responses';
import { API_KEY_SCHEME } from '../../common/openapi/security-schemes';
import { qrCodeIdPipe } from '../../common/validation/resource-id.pipe';
import { ApiQrCodeIdParam, QR_CODE_NOT_FOUND } from '../../qrcodes/qr-codes.controller';
import { EraseScansQuery, ScanCsvQuery, ScansErasedView } from './dto/scan-history.dto';
import { SCAN_CSV_COLUMNS } from './scan-csv';
import { ScanHistoryService } from './scan-history.service';

/** The 200 answer of GET :id/scans.csv, with an example file. */
const SCAN_CSV_RESPONSE: ApiResponseOptions = {
  status: 200,
  description: 'RFC 4180 CSV, UTF-8, comma-separated, CRLF line ends, a header line first',
  headers: {
    'Content-Disposition': { schema: { type: 'string', example: 'attachment; filename="scans-0b8a3c0e-5a4f-4b7e-9d61-3f2a1c9e8b70.csv"' } },
  },
  content: {
    'text/csv': {
      schema: {
        type: 'string',
        example:
          'time,device,os,browser,referrer,country,city,rule,arm,bot,rule_name,arm_name\r\n' +
          '2026-11-01T08:15:02.117Z,mobile,iOS,Mobile Safari,https://news.example/,DE,Berlin,0,1,false,German speakers,Landing B\r\n' +
          '2026-11-01T08:15:09.480Z,bot,unknown,unknown,,,,,,true,,\r\n',
      },
    },
  },
};

@ApiTags('qrcodes')
@ApiSecurity(API_KEY_SCHEME)
@Controller('api/v1/qrcodes')
export class ScanHistoryController {
  constructor(private readonly history: ScanHistoryService) {}

  @Get(':id/scans.csv')
  @RequiredScope('analytics:read')
  @ApiOperation({
    operationId: 'exportQrCodeScansCsv',
    summary: "A QR code's stored scans as CSV (streamed, oldest first)",
    description:
      `One line per stored scan with from <= time < to, ordered by time: ${SCAN_CSV_COLUMNS.join(', ')}. ` +
      'Bot scans are included (bot = true). `rule` and `arm` are indexes; `rule_name` and `arm_name` the names they carry now (empty without one). ' +
      'Never the visitor hash or the user agent. ' +
      'Cells a spreadsheet would read as a formula start with an apostrophe.',
  })
  @ApiQrCodeIdParam()
  @ApiProduces('text/csv')
  @ApiResponse(SCAN_CSV_RESPONSE)
  @ApiErrorResponses({
    400: {
      description: 'from or to not an ISO 8601 date-time, or from not before to',
      message: 'Validation failed: from must be earlier than to',
      errors: [{ field: 'from', message: 'from must be earlier than to' }],
    },
    ...QR_CODE_NOT_FOUND,
    ...API_KEY_ROUTE_ERRORS,
  })
  async csv(
    @CurrentAccount() account: AccountId,
    @Param('id', qrCodeIdPipe) id: QrCodeId,
    @Query() query: ScanCsvQuery,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const lines = await this.history.csv(account, id, query);
    await sendDownload(reply, {
      contentType: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="scans-${id}.csv"`,
      body: Readable.from(lines),
    });
  }

  @Delete(':id/scans')
  @RequiredScope('analytics:write')
  @ApiOperation({
    operationId: 'eraseQrCodeScans',
    summary: "Erase a QR code's scans before an instant",
    description:
      'Deletes the stored scan events with time < before (bots included), and adjusts the daily rollups, so analytics ' +
      'no longer count them; the copy in ClickHouse, when configured, is erased in the background. ' +
      "The code's `scans` counter is kept (it counts every scan ever made). Recorded in the audit log as `qrcode.erase_scans`.",
  })
  @ApiQrCodeIdParam()
  @ApiOkResponse({ type: ScansErasedView, description: 'How many scan events were erased' })
  @ApiErrorResponses({
    400: {
      description: 'before missing or not an ISO 8601 date-time',
      message: 'Validation failed: before is required: an ISO 8601 date-time after 1970, e.g. 2026-11-01T00:00:00Z',
      errors: [{ field: 'before', message: 'before is required: an ISO 8601 date-time after 1970, e.g. 2026-11-01T00:00:00Z' }],
    },
    ...QR_CODE_NOT_FOUND,
    ...API_KEY_ROUTE_ERRORS,
  })
  erase(@CurrentAccount() account: AccountId, @Param('id', qrCodeIdPipe) id: QrCodeId, @Query() query: EraseScansQuery) {
    return this.history.erase(account, id, query);
  }
}
