import type { FolderId, QrCodeId } from '../common/ids/resource-ids';
import type { NearCache, NearCacheRegistry } from '../infra/cache/near-cache';

/**
 * Rendered images in the shared cache: one group per code, a member per render version and size.
 * An update that changes the drawing bumps the version (the old members are never read again) and
 * drops the group; a delete drops it too.
 */
export const imageCacheGroup = (codeId: QrCodeId) => `img:${codeId}`;
export const imageCacheMember = (renderVersion: number, size: number) => `${renderVersion}:${size}`;
/** An exported file: one member per render version and export parameters, beside the images of the same group. */
export const exportCacheMember = (renderVersion: number, parameters: string) => `${renderVersion}:x:${parameters}`;

/** What rendering a code's image needs, remembered per account and code so cache hits skip the database. */
export interface ImageSource {
  id: QrCodeId;
  /** the code's name: exported files are named after it */
  name: string;
  renderVersion: number;
  /** What the image encodes: the short link of a dynamic code, else the content string. */
  text: string;
  style: Record<string, unknown>;
  /** The smallest `size` whose image decodes (smallestDecodableSize), or null when none in the range does. */
  minDecodableSize: number | null;
  /** A folder-restricted key may see the image only of a code in its folders (docs/api-keys-and-security.md). */
  folderId: FolderId | null;
}

export const imageSourceKey = (accountId: string, codeId: string) => `${accountId}:${codeId}`;

/** The near cache of image sources; dropped on every change of the code (ImagesService listens). */
export function imageSources(registry: NearCacheRegistry): NearCache<ImageSource> {
  return registry.cache<ImageSource>('image-sources', { maxEntries: 50_000, ttlMs: 60_000 });
}
