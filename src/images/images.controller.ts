import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import { ApiOperation, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses } from '../common/openapi/error-responses';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { IMAGE_FORMATS, type ImageQuery } from './dto/image.query';
import { ImageQueryPipe } from './dto/image-query.pipe';
import { MAX_SIZE, MIN_SIZE } from '../rendering/image-size-range';
import { ApiQrCodeIdParam, QR_CODE_NOT_FOUND } from '../qrcodes/qr-codes.controller';
import { qrCodeIdPipe } from '../common/validation/resource-id.pipe';
import { ImagesService } from './images.service';
import { MIN_PIXELS_PER_MODULE } from '../rendering/module-size-rule';

/**
 * Images are inert documents: nothing in them may run or load anything from elsewhere. The one
 * thing an image embeds is its logo, a `data:` URI (the style allows no other), so `img-src data:`
 * lets a browser opening the image directly show it. The renderer writes attributes only, no
 * `style`, so no style source is allowed.
 */
export const IMAGE_CSP = "default-src 'none'; img-src data:";

/** The smallest `size` at which this code's image decodes (docs/styling-and-scannability.md#which-sizes-decode). */
export const MIN_DECODABLE_SIZE_HEADER = 'x-qr-min-decodable-size';

/** `Warning` as RFC 7234 wrote it (code 199, miscellaneous): a note for a person, the response itself is fine. */
export function warningValue(text: string): string {
  return `199 - "${text.replace(/["\\]/g, '')}"`;
}

const SMALL_MODULES_WARNING_DOC = {
  description:
    'Present when modules are narrower than 2 px at the requested size, so the image may not decode ' +
    '(docs/styling-and-scannability.md#which-sizes-decode). ' +
    'Format of RFC 7234 (code 199); the text names the size to use instead.',
  schema: {
    type: 'string',
    example: '199 - "modules are narrower than 2 px at this size; the image may not decode; use size 242 or more"',
  },
};

const MIN_DECODABLE_SIZE_DOC = {
  description:
    "The smallest `size` (pixels) at which this code's image decodes: its modules are 2 px wide there, with a light border of one module at least. " +
    'A smaller size in the allowed range is still answered, but its image may not decode (below 1 px a module, none does). ' +
    `At least ${MIN_SIZE}; depends on the encoded text and the style, not on the requested size`,
  schema: { type: 'integer', minimum: MIN_SIZE, maximum: MAX_SIZE, example: 242 },
};

@ApiTags('qrcodes')
@ApiSecurity(API_KEY_SCHEME)
@Controller('api/v1/qrcodes')
export class ImagesController {
  constructor(private readonly images: ImagesService) {}

  @Get(':id/image')
  @RequiredScope('qrcodes:read')
  @ApiOperation({
    operationId: 'getQrCodeImage',
    summary: 'The QR code as an SVG image',
    description:
      "A dynamic code's image encodes its short link; a static code's, its content. Cached (Cache-Control: public, max-age=3600); " +
      'send the ETag back in If-None-Match to get 304 when it has not changed. Every size in the range is answered, but not ' +
      'every size decodes: the image decodes from the size the X-QR-Min-Decodable-Size header names ' +
      '(modules 2 px wide, a one-module light border) upward; ' +
      'below it (a long static content at a small size) a Warning header says so. A frame (style.frameOptions) is drawn around ' +
      'the code and adds to the image; a size at which its text would be too small to read is refused (400 naming size). ' +
      'PNG and PDF files: GET /api/v1/qrcodes/{id}/export.',
  })
  @ApiQrCodeIdParam()
  @ApiQuery({
    name: 'size',
    required: false,
    schema: { type: 'integer', minimum: MIN_SIZE, maximum: MAX_SIZE, default: 300 },
    description: `Width and height in pixels, ${MIN_SIZE} to ${MAX_SIZE}`,
  })
  @ApiQuery({ name: 'format', required: false, enum: IMAGE_FORMATS, description: 'Only svg' })
  @ApiResponse({
    status: 200,
    description: 'The SVG document',
    headers: {
      ETag: { description: 'Version of this image', schema: { type: 'string', example: '"r1.v1.s300"' } },
      'Cache-Control': { schema: { type: 'string', example: 'public, max-age=3600' } },
      'X-QR-Min-Decodable-Size': MIN_DECODABLE_SIZE_DOC,
      Warning: SMALL_MODULES_WARNING_DOC,
    },
    content: {
      'image/svg+xml': {
        schema: { type: 'string', example: '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 300 300">…</svg>' },
      },
    },
  })
  @ApiResponse({
    status: 304,
    description: 'Not modified: If-None-Match names the current ETag',
    headers: { 'X-QR-Min-Decodable-Size': MIN_DECODABLE_SIZE_DOC },
  })
  @ApiErrorResponses({
    400: {
      description: "size out of range, a format other than svg, or a size at which the frame's text would be too small to read",
      message: 'Validation failed: size must not be greater than 2000',
      errors: [{ field: 'size', message: 'size must not be greater than 2000' }],
    },
    ...QR_CODE_NOT_FOUND,
    ...API_KEY_ROUTE_ERRORS,
  })
  async image(
    @CurrentAccount() account: AccountId,
    @Param('id', qrCodeIdPipe) id: QrCodeId,
    // An interface (no class to validate), so the global ValidationPipe passes it through to ImageQueryPipe.
    @Query(ImageQueryPipe) query: ImageQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const image = await this.images.image(account, id, query.size, ifNoneMatch);
    reply
      .header('etag', image.etag)
      .header('cache-control', 'public, max-age=3600')
      .header('content-security-policy', IMAGE_CSP)
      .header('x-content-type-options', 'nosniff');
    if (image.minDecodableSize !== null) reply.header(MIN_DECODABLE_SIZE_HEADER, String(image.minDecodableSize));
    if (image.minDecodableSize === null || query.size < image.minDecodableSize) {
      const remedy = image.minDecodableSize === null ? 'no size in the range gives that' : `use size ${image.minDecodableSize} or more`;
      reply.header(
        'warning',
        warningValue(`modules are narrower than ${MIN_PIXELS_PER_MODULE} px at this size; the image may not decode; ${remedy}`),
      );
    }
    if (!image.svg) {
      reply.status(304).send();
      return;
    }
    reply.status(200).header('content-type', 'image/svg+xml').send(image.svg);
  }
}
