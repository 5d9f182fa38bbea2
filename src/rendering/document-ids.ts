/**
 * Element ids of one document. Several SVGs inlined in one HTML page share one id namespace, so
 * ids carry a per-document prefix: the caller's, or one hashed from the render input (which keeps
 * rendering pure and deterministic; two documents that hash alike define identical gradients, so
 * even then nothing is painted wrongly).
 */
import type { QrStyle } from './style/qr-style';

const VALID_PREFIX = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function checkIdPrefix(prefix: string): string {
  if (!VALID_PREFIX.test(prefix)) {
    throw new RangeError('idPrefix must start with a letter or "_" and hold only letters, digits, "-" and "_"');
  }
  return prefix;
}

/** 32-bit FNV-1a over UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A prefix derived from what the document depends on (the logo only through its length: it adds no ids). */
export function derivedIdPrefix(text: string, style: QrStyle, size: number): string {
  const styleWithoutLogo = { ...style, image: style.image?.length };
  return `qr${fnv1a(`${size}\u0000${text}\u0000${JSON.stringify(styleWithoutLogo)}`).toString(36)}`;
}
