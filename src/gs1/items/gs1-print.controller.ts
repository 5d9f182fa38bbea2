import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentAccount } from '../../common/auth/current-account.decorator';
import { RequiredScope } from '../../common/auth/required-scope.decorator';
import type { AccountId } from '../../common/ids/account-id';
import type { Gs1ItemId } from '../../common/ids/resource-ids';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, ID_NOT_A_UUID } from '../../common/openapi/error-responses';
import { API_KEY_SCHEME } from '../../common/openapi/security-schemes';
import { gs1ItemIdPipe } from '../../common/validation/resource-id.pipe';
import { ValidationFailedException } from '../../common/validation/validation-failed.exception';
import { attachmentDisposition } from '../../infra/http/download';
import { ExportQueryPipe } from '../../images/dto/export-query.pipe';
import { ImageQueryPipe } from '../../images/dto/image-query.pipe';
import { IMAGE_CSP } from '../../images/images.controller';
import { EXPORT_FORMATS } from '../../rendering/export/export-file';
import { roundMm } from '../../rendering/export/print-size';
import { MAX_SIZE, MIN_SIZE } from '../../rendering/image-size-range';
import { Gs1PrintService, MIN_RETAIL_MODULE_MM, type PrintOptions } from './gs1-print.service';

const ApiItemIdParam = () => ApiParam({ name: 'id', description: 'Id of one of your GS1 items', format: 'uuid' });
const ApiCompressedQuery = () =>
  ApiQuery({
    name: 'compressed',
    required: false,
    schema: { type: 'boolean', default: false },
    description: 'Encode the compressed Digital Link URI (GS1 Digital Link: Compression)',
  });
const ITEM_ERRORS = { 400: ID_NOT_A_UUID, 404: { description: 'No such GS1 item among yours', message: 'GS1 item not found' } } as const;

const ApiHriQuery = () =>
  ApiQuery({
    name: 'hri',
    required: false,
    schema: { type: 'boolean', default: true },
    description: 'Draw the human-readable interpretation under the code (false: the pack prints it elsewhere)',
  });

/** `compressed` and `hri` are the GS1 routes' own; the rest is a code's image or export query. */
function splitGs1Options(raw: Record<string, unknown>): { options: PrintOptions; rest: Record<string, unknown> } {
  const { compressed, hri, ...rest } = raw;
  return { options: { compressed: flag(compressed, 'compressed', false), hri: flag(hri, 'hri', true) }, rest };
}

function flag(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new ValidationFailedException([{ field, message: `${field} must be true or false` }]);
}

@ApiTags('gs1')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/gs1/items')
export class Gs1PrintController {
  constructor(private readonly print: Gs1PrintService) {}

  @Get(':id/image')
  @RequiredScope('gs1:read')
  @ApiOperation({
    operationId: 'getGs1ItemImage',
    summary: 'The item’s QR code as an SVG: its Digital Link URI, the human-readable interpretation under it',
    description: 'Drawn to GS1’s symbol guidance: no logo, a quiet zone of four modules, black on white, error correction M.',
  })
  @ApiItemIdParam()
  @ApiQuery({ name: 'size', required: false, schema: { type: 'integer', minimum: MIN_SIZE, maximum: MAX_SIZE, default: 300 } })
  @ApiQuery({ name: 'format', required: false, enum: ['svg'] })
  @ApiCompressedQuery()
  @ApiHriQuery()
  @ApiResponse({ status: 200, description: 'The SVG', content: { 'image/svg+xml': { schema: { type: 'string' } } } })
  @ApiErrorResponses(ITEM_ERRORS)
  async image(
    @CurrentAccount() account: AccountId,
    @Param('id', gs1ItemIdPipe) id: Gs1ItemId,
    @Query() raw: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ) {
    const { options, rest } = splitGs1Options(raw);
    const svg = await this.print.image(account, id, new ImageQueryPipe().transform(rest), options);
    reply.header('content-type', 'image/svg+xml').header('content-security-policy', IMAGE_CSP).header('x-content-type-options', 'nosniff').send(svg);
  }

  @Get(':id/export')
  @RequiredScope('gs1:read')
  @ApiOperation({
    operationId: 'exportGs1Item',
    summary: 'The item’s QR code as a PNG, PDF or SVG file, sized in pixels or as a printed width (width_mm)',
    description:
      `As a code's export, drawn to GS1's guidance; a printed width whose modules would be under ${MIN_RETAIL_MODULE_MM} mm ` +
      "(GS1's minimum for a till) is refused (400 naming width_mm).",
  })
  @ApiItemIdParam()
  @ApiQuery({ name: 'format', required: false, enum: EXPORT_FORMATS })
  @ApiQuery({ name: 'width_mm', required: false, schema: { type: 'number' } })
  @ApiQuery({ name: 'size', required: false, schema: { type: 'integer' } })
  @ApiQuery({ name: 'dpi', required: false, schema: { type: 'integer' } })
  @ApiCompressedQuery()
  @ApiHriQuery()
  @ApiResponse({
    status: 200,
    description: 'The file (PNG by default)',
    content: Object.fromEntries(
      ['image/png', 'application/pdf', 'image/svg+xml'].map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
    ),
  })
  @ApiErrorResponses(ITEM_ERRORS)
  async export(
    @CurrentAccount() account: AccountId,
    @Param('id', gs1ItemIdPipe) id: Gs1ItemId,
    @Query() raw: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ) {
    const { options, rest } = splitGs1Options(raw);
    const query = new ExportQueryPipe().transform(rest);
    const { file, fileName } = await this.print.export(account, id, query, options);
    reply
      .header('content-type', file.contentType)
      .header('content-disposition', attachmentDisposition(fileName, query.format, 'gs1-item'))
      .header('content-security-policy', IMAGE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('x-qr-module-size-mm', String(roundMm(file.moduleSizeMm)))
      .send(file.bytes);
  }
}
