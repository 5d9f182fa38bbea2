import type { ServedDomain } from '../../domains';
import type { LinkTarget } from '../../smart-links';
import { previewPageHtml } from './preview-page';

/** The path, under a short link, of the code's own QR image that its preview card shows when the owner set no image. */
export const PREVIEW_IMAGE_FILE = 'qr.png';

/** A short link, absolute: on the branded domain it was asked on (always https), else on the service's redirect host. */
export function shortLinkOf(shortCode: string, domain: ServedDomain | undefined, redirectUrl: string): string {
  return domain ? `https://${domain.hostname}/r/${shortCode}` : `${redirectUrl}/r/${shortCode}`;
}

/**
 * The page a preview bot gets for a code with a preview (docs/sharing.md#link-previews): the
 * owner's title, description and image; no title: the code's name is not public, so its short
 * link; no image: the code's own QR image (`<short link>/qr.png`). Pure.
 */
export function linkPreviewHtml(target: LinkTarget, shortLink: string): string {
  const preview = target.preview ?? {};
  return previewPageHtml({
    title: preview.title ?? shortLink,
    description: preview.description ?? null,
    imageUrl: preview.image_url ?? `${shortLink}/${PREVIEW_IMAGE_FILE}`,
    url: shortLink,
    ownImage: preview.image_url !== undefined,
  });
}
