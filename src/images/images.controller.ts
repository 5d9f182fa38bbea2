import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AccountId } from '../common/auth/account-id';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { IMAGE_FORMATS, type ImageQuery } from './dto/image.query';
import { ImageQueryPipe } from './dto/image-query.pipe';
import { qrCodeId } from '../qrcodes/qr-codes.controller';
import { ImagesService } from './images.service';

/** Images are inert documents: nothing in them may run or load anything. */
const IMAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'";

@ApiTags('qrcodes')
@ApiSecurity('api-key')
@Controller('api/v1/qrcodes')
export class ImagesController {
  constructor(private readonly images: ImagesService) {}

  @Get(':id/image')
  @ApiOperation({ summary: 'The QR code as an SVG image (cached; ETag / If-None-Match supported)' })
  @ApiProduces('image/svg+xml')
  @ApiQuery({ name: 'size', required: false, type: Number, description: 'Width and height in pixels, 100 to 2000 (default 300)' })
  @ApiQuery({ name: 'format', required: false, enum: IMAGE_FORMATS, description: 'Only svg' })
  @ApiResponse({ status: 200, description: 'The SVG document' })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched)' })
  async image(
    @CurrentAccount() account: AccountId,
    @Param('id', qrCodeId) id: string,
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
    if (!image.svg) {
      reply.status(304).send();
      return;
    }
    reply.status(200).header('content-type', 'image/svg+xml').send(image.svg);
  }
}
