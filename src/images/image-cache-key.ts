/**
 * Keys of rendered images in the cache: per code, render version and size. An update bumps the
 * version (old entries are never read again and expire); a delete removes the code's prefix.
 */
export const imageCachePrefix = (codeId: string) => `img:${codeId}:`;
export const imageCacheKey = (codeId: string, renderVersion: number, size: number) => `${imageCachePrefix(codeId)}${renderVersion}:${size}`;
