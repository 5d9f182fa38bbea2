import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServedDomain } from '../domains';
import { ImagesService } from '../images/images.service';
import { HostRoutes, sendHostPage } from '../redirect/host-routes';
import { NOT_FOUND_PAGE } from '../redirect/landing/status-pages';
import { PREVIEW_IMAGE_FILE } from '../redirect/previews/link-preview-answer';
import { RedirectService } from '../redirect/redirect.service';
import { DEFAULT_DPI } from '../rendering/export/print-size';

/** The preview card's QR image: square, large enough for every app's card (most ask for at least 200 × 200). */
const PREVIEW_IMAGE_SIZE = 600;
/** Chat apps and their image proxies may keep it an hour; a change of the code changes its ETag. */
const PREVIEW_IMAGE_MAX_AGE_SECONDS = 3600;

type ShortCodeRequest = FastifyRequest<{ Params: { shortCode: string } }>;

/**
 * `GET /r/<code>/qr.png` (docs/sharing.md#link-previews): the code's own QR image (a PNG that
 * decodes to its short link), served without a key for the cards of chat apps, of a live code that
 * has a preview; any other code answers 404. On every host the short link is served on.
 */
@Injectable()
export class PreviewImageRoutes {
  constructor(
    routes: HostRoutes,
    private readonly redirects: RedirectService,
    private readonly images: ImagesService,
  ) {
    routes.add({
      method: ['GET', 'HEAD'],
      url: `/r/:shortCode/${PREVIEW_IMAGE_FILE}`,
      handler: (request, reply, domain) => this.image(request as ShortCodeRequest, reply, domain),
    });
  }

  private async image(request: ShortCodeRequest, reply: FastifyReply, domain: ServedDomain | null): Promise<FastifyReply> {
    const target = await this.redirects.previewTarget(request.params.shortCode, domain ?? undefined);
    if (!target) return sendHostPage(reply.header('cache-control', 'no-store'), 404, NOT_FOUND_PAGE);
    const file = await this.images.export(
      target.accountId,
      target.codeId,
      { format: 'png', size: PREVIEW_IMAGE_SIZE, dpi: DEFAULT_DPI },
      request.headers['if-none-match'],
    );
    reply
      .header('cache-control', `public, max-age=${PREVIEW_IMAGE_MAX_AGE_SECONDS}`)
      .header('etag', file.etag)
      .header('content-type', 'image/png')
      .header('content-security-policy', "default-src 'none'")
      .header('x-content-type-options', 'nosniff')
      .header('access-control-allow-origin', '*');
    return file.bytes === null ? reply.status(304).send() : reply.status(200).send(file.bytes);
  }
}
