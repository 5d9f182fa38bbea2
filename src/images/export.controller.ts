import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { qrCodeIdPipe } from '../common/validation/resource-id.pipe';
import { roundMm } from '../rendering/export/print-size';
import { attachmentDisposition, sendDownload } from '../infra/http/download';
import { ExportQueryPipe } from './dto/export-query.pipe';
import type { ExportQuery } from './dto/export.query';
import { IMAGE_CSP, warningValue } from './images.controller';
import { ImagesService } from './images.service';
import { ApiExportOperation } from './images.openapi';

/** The printed width of one module, millimetres (docs/styling-and-scannability.md#print-sizes). */
export const MODULE_SIZE_MM_HEADER = 'x-qr-module-size-mm';

@ApiTags('qrcodes')
@ApiSecurity(API_KEY_SCHEME)
@Controller('api/v1/qrcodes')
export class ExportController {
  constructor(private readonly images: ImagesService) {}

  @Get(':id/export')
  @RequiredScope('qrcodes:read')
  @ApiExportOperation()
  async export(
    @CurrentAccount() account: AccountId,
    @Param('id', qrCodeIdPipe) id: QrCodeId,
    // An interface (no class to validate), so the global ValidationPipe passes it through to ExportQueryPipe.
    @Query(ExportQueryPipe) query: ExportQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const file = await this.images.export(account, id, query, ifNoneMatch);
    reply
      .header('content-security-policy', IMAGE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header(MODULE_SIZE_MM_HEADER, String(roundMm(file.measure.moduleSizeMm)));
    if (file.measure.warning) reply.header('warning', warningValue(file.measure.warning));
    sendDownload(reply, {
      contentType: file.contentType,
      disposition: attachmentDisposition(file.fileName, query.format, 'qr-code'),
      body: file.bytes,
      etag: file.etag,
      cacheControl: 'public, max-age=3600',
    });
  }
}
