import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import type { ImageQuery } from './dto/image.query';
import { ImageQueryPipe } from './dto/image-query.pipe';
import { qrCodeIdPipe } from '../common/validation/resource-id.pipe';
import { ImagesService } from './images.service';
import { ApiImageOperation } from './images.openapi';
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

@ApiTags('qrcodes')
@ApiSecurity(API_KEY_SCHEME)
@Controller('api/v1/qrcodes')
export class ImagesController {
  constructor(private readonly images: ImagesService) {}

  @Get(':id/image')
  @RequiredScope('qrcodes:read')
  @ApiImageOperation()
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
