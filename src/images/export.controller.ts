import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses } from '../common/openapi/error-responses';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { qrCodeIdPipe } from '../common/validation/resource-id.pipe';
import { ApiQrCodeIdParam, QR_CODE_NOT_FOUND } from '../qrcodes/qr-codes.controller';
import { EXPORT_FORMATS } from '../rendering/export/export-file';
import {
  DEFAULT_DPI,
  DEFAULT_EXPORT_SIZE,
  MAX_BLEED_MM,
  MAX_DPI,
  MAX_EXPORT_SIZE,
  MAX_WIDTH_MM,
  MIN_DPI,
  MIN_EXPORT_SIZE,
  MIN_MODULE_MM,
  MIN_WIDTH_MM,
  roundMm,
} from '../rendering/export/print-size';
import { attachmentDisposition, sendDownload } from '../infra/http/download';
import { ExportQueryPipe } from './dto/export-query.pipe';
import type { ExportQuery } from './dto/export.query';
import { IMAGE_CSP, warningValue } from './images.controller';
import { ImagesService } from './images.service';

/** The printed width of one module, millimetres (docs/styling-and-scannability.md#print-sizes). */
export const MODULE_SIZE_MM_HEADER = 'x-qr-module-size-mm';

const EXPORT_HEADERS = {
  'Content-Disposition': {
    description: 'attachment, named after the code: `filename` in ASCII, `filename*` in UTF-8 (RFC 6266, RFC 8187)',
    schema: { type: 'string', example: `attachment; filename="Menu Sommer.png"; filename*=UTF-8''Men%C3%BC%20Sommer.png` },
  },
  ETag: { description: 'Version of this file', schema: { type: 'string', example: '"r1.v1.x.png.w40.d300"' } },
  'Cache-Control': { schema: { type: 'string', example: 'public, max-age=3600' } },
  'X-QR-Module-Size-Mm': {
    description: `Printed width of one module in millimetres: at width_mm, or at dpi for a size in pixels. Print needs at least ${MIN_MODULE_MM}.`,
    schema: { type: 'number', example: 1.017 },
  },
  Warning: {
    description:
      'Present when a PNG or SVG sized in pixels (or a PNG at a low dpi) has modules narrower than 2 px: the file is made but may ' +
      'not decode; the text names what to change. RFC 7234 format, code 199.',
    schema: {
      type: 'string',
      example: '199 - "modules are 1.5 px wide, below the 2 px images decode from; the image may not decode; use size 242 or more"',
    },
  },
};

const BINARY = { type: 'string', format: 'binary' };

const TOO_NARROW_EXAMPLE =
  "width_mm: at 10 mm the code's 29 modules (plus quiet zone) are 0.254 mm wide, " +
  `below the ${MIN_MODULE_MM} mm a printed module needs to scan reliably; use width_mm 13 or more`;

@ApiTags('qrcodes')
@ApiSecurity(API_KEY_SCHEME)
@Controller('api/v1/qrcodes')
export class ExportController {
  constructor(private readonly images: ImagesService) {}

  @Get(':id/export')
  @RequiredScope('qrcodes:read')
  @ApiOperation({
    operationId: 'exportQrCode',
    summary: 'The QR code as a PNG, PDF or SVG file, sized in pixels or for print',
    description:
      'A download of the code as /image draws it, frame included. PNG is rendered from the SVG with the resolution (dpi) written in ' +
      'the file; PDF is vectors (paths, gradients as PDF gradients, the logo embedded), one page of the code and its frame plus ' +
      '`bleed_mm`; SVG is the image document, in millimetres when `width_mm` is given. Size by `size` (pixels) or by `width_mm` ' +
      '(the printed width of the code with its quiet zone; a frame adds to it) at `dpi`. ' +
      `A printed width whose modules would be narrower than ${MIN_MODULE_MM} mm ` +
      'is refused (400 naming width_mm and the smallest width that works). Cached per version of the code and parameters; send the ' +
      'ETag back in If-None-Match to get 304.',
  })
  @ApiQrCodeIdParam()
  @ApiQuery({ name: 'format', required: false, enum: EXPORT_FORMATS, description: 'File format, default png', example: 'pdf' })
  @ApiQuery({
    name: 'size',
    required: false,
    schema: { type: 'integer', minimum: MIN_EXPORT_SIZE, maximum: MAX_EXPORT_SIZE, default: DEFAULT_EXPORT_SIZE },
    description: `Width of the code (quiet zone included) in pixels; the default when width_mm is not given. Not with width_mm.`,
  })
  @ApiQuery({
    name: 'width_mm',
    required: false,
    schema: { type: 'number', minimum: MIN_WIDTH_MM, maximum: MAX_WIDTH_MM, multipleOf: 0.01 },
    description: 'Printed width of the code with its quiet zone, millimetres; a frame adds to it. Not with size.',
    example: 40,
  })
  @ApiQuery({
    name: 'dpi',
    required: false,
    schema: { type: 'integer', minimum: MIN_DPI, maximum: MAX_DPI, default: DEFAULT_DPI },
    description:
      "Resolution: the PNG's pixels per inch (written in the file) and the grid the code is laid out on. " +
      `A PNG is at most ${MAX_EXPORT_SIZE} px wide.`,
    example: 300,
  })
  @ApiQuery({
    name: 'bleed_mm',
    required: false,
    schema: { type: 'number', minimum: 0, maximum: MAX_BLEED_MM, multipleOf: 0.01, default: 0 },
    description: "PDF only: margin added on every side of the page, filled with the drawing's edge colour, to be trimmed off.",
  })
  @ApiResponse({
    status: 200,
    description: 'The file, as an attachment',
    headers: EXPORT_HEADERS,
    content: { 'image/png': { schema: BINARY }, 'application/pdf': { schema: BINARY }, 'image/svg+xml': { schema: { type: 'string' } } },
  })
  @ApiResponse({
    status: 304,
    description: 'Not modified: If-None-Match names the current ETag',
    headers: { ETag: EXPORT_HEADERS.ETag, 'X-QR-Module-Size-Mm': EXPORT_HEADERS['X-QR-Module-Size-Mm'] },
  })
  @ApiErrorResponses({
    400: {
      description:
        'An unknown format, a size, width_mm, dpi or bleed_mm out of range or combined wrongly, a print size whose modules ' +
        "would be too small to scan, a PNG beyond 4000 px, or a size at which the frame's text would be too small to read",
      message: `Validation failed: ${TOO_NARROW_EXAMPLE}`,
      errors: [
        {
          field: 'width_mm',
          message: TOO_NARROW_EXAMPLE,
        },
      ],
    },
    ...QR_CODE_NOT_FOUND,
    ...API_KEY_ROUTE_ERRORS,
  })
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
