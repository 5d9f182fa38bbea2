import { Injectable } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { ImageLinkId } from '../common/ids/resource-ids';
import { ImagesService } from '../images/images.service';
import { DEFAULT_DPI } from '../rendering/export/print-size';
import { ImageLinksRepository } from './image-links.repository';
import { IMAGE_LINK_PURPOSE } from './image-links.service';
import { tokenRecordId, tokenSigned } from './signed-token';

/** A CDN may keep an image this long (or until its link expires, if sooner). */
export const IMAGE_LINK_MAX_AGE_SECONDS = 86_400;

export type ImageLinkAnswer =
  { kind: 'image'; contentType: string; etag: string; maxAgeSeconds: number; bytes: Buffer | null } | { kind: 'gone' } | { kind: 'not_found' };

/**
 * `GET /i/<token>` (docs/sharing.md#image-links): the image of a link this deployment signed with
 * its account's current secret, while the link is neither revoked nor expired. Everything that
 * shapes the image is the link's; the link is read per request, so a revocation holds at once.
 */
@Injectable()
export class ImageLinkServing {
  constructor(
    private readonly links: ImageLinksRepository,
    private readonly images: ImagesService,
  ) {}

  /** `onlyAccount`: on a branded domain, only its own account's links exist. */
  async answer(token: string, ifNoneMatch: string | undefined, now: Date, onlyAccount: AccountId | null): Promise<ImageLinkAnswer> {
    const id = tokenRecordId(token) as ImageLinkId | null;
    const found = id && (await this.links.findByToken(id));
    if (!found || (onlyAccount && found.link.accountId !== onlyAccount)) return { kind: 'not_found' };
    const { link, secret } = found;
    const signed = secret !== null && tokenSigned(token, secret, IMAGE_LINK_PURPOSE);
    // Revoked, one by one or by a rotation of the secret that signed it (the old signature no longer checks): gone.
    if (link.revokedAt) return { kind: 'gone' };
    if (!signed) return { kind: 'not_found' };
    if (link.expiresAt && link.expiresAt.getTime() <= now.getTime()) return { kind: 'gone' };
    const variant = link.styleOverrides ? { key: link.id, style: link.styleOverrides } : undefined;
    const secondsLeft = link.expiresAt ? Math.floor((link.expiresAt.getTime() - now.getTime()) / 1000) : Infinity;
    const maxAgeSeconds = Math.min(IMAGE_LINK_MAX_AGE_SECONDS, secondsLeft);
    if (link.format === 'svg') {
      const image = await this.images.image(link.accountId, link.qrCodeId, link.size, undefined, variant);
      return this.withEtag('image/svg+xml', image.etag, image.svg, ifNoneMatch, maxAgeSeconds);
    }
    const file = await this.images.export(link.accountId, link.qrCodeId, { format: 'png', size: link.size, dpi: DEFAULT_DPI }, undefined, variant);
    return this.withEtag('image/png', file.etag, file.bytes, ifNoneMatch, maxAgeSeconds);
  }

  private withEtag(contentType: string, etag: string, bytes: Buffer | null, ifNoneMatch: string | undefined, maxAgeSeconds: number): ImageLinkAnswer {
    const matched = ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
    return { kind: 'image', contentType, etag, maxAgeSeconds, bytes: matched ? null : bytes };
  }
}
