import type { NearCache, NearCacheRegistry } from '../infra/cache/near-cache';

/**
 * Keys of rendered images in the cache: per code, render version and size. An update bumps the
 * version (old entries are never read again and expire); a delete removes the code's prefix.
 */
export const imageCachePrefix = (codeId: string) => `img:${codeId}:`;
export const imageCacheKey = (codeId: string, renderVersion: number, size: number) => `${imageCachePrefix(codeId)}${renderVersion}:${size}`;

/** What rendering a code's image needs, remembered per account and code so cache hits skip the database. */
export interface ImageSource {
  id: string;
  renderVersion: number;
  /** What the image encodes: the short link of a dynamic code, else the content string. */
  text: string;
  style: Record<string, unknown>;
}

export const imageSourceKey = (accountId: string, codeId: string) => `${accountId}:${codeId}`;

/** The near cache of image sources; the QR code service invalidates it on every update and delete. */
export function imageSources(registry: NearCacheRegistry): NearCache<ImageSource> {
  return registry.cache<ImageSource>('image-sources', { maxEntries: 50_000, ttlMs: 60_000 });
}
