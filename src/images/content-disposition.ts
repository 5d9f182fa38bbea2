/**
 * `Content-Disposition: attachment` for a downloaded file named after the code (RFC 6266): a
 * `filename` every client understands (ASCII, accents stripped, anything else that a file system or
 * a header could trip on replaced by `_`) and a `filename*` in UTF-8 (RFC 8187) with the name as it
 * is but for the characters no file system allows.
 */

const MAX_NAME_LENGTH = 100;
const FALLBACK_NAME = 'qr-code';
/** Reserved on Windows or meaningful in a path or a quoted header value; control characters too. */
const UNSAFE_IN_FILE_NAMES = /[\p{Cc}\p{Cf}/\\:*?"<>|]+/gu;
/** Kept in the plain name: letters, digits and punctuation no browser decodes or trips on (no `%`, `;`, quotes). */
const NOT_PLAIN_ASCII = /[^A-Za-z0-9 ._()+,@&!#~[\]-]+/g;
const COMBINING_MARKS = /\p{M}+/gu;
/** RFC 8187 attr-char: everything else is percent-encoded. */
const NOT_ATTR_CHAR = /[^A-Za-z0-9!#$&+.^_`|~-]/g;

/** The name made safe for a file system: unsafe characters become `_`, dots and spaces are trimmed from the ends. */
export function safeFileName(name: string): string {
  const cleaned = [...name.normalize('NFC').replace(UNSAFE_IN_FILE_NAMES, '_').trim()]
    .slice(0, MAX_NAME_LENGTH)
    .join('')
    .replace(/^[.\s]+|[.\s]+$/g, '');
  return cleaned || FALLBACK_NAME;
}

/** An ASCII-only rendering of a safe name for the plain `filename` parameter. */
export function asciiFileName(safeName: string): string {
  const ascii = safeName.normalize('NFKD').replace(COMBINING_MARKS, '').replace(NOT_PLAIN_ASCII, '_').replace(/_+/g, '_');
  return ascii.replace(/^[_.\s]+|[_.\s]+$/g, '') || FALLBACK_NAME;
}

export function attachmentDisposition(name: string, extension: string): string {
  const safe = `${safeFileName(name)}.${extension}`;
  const ascii = `${asciiFileName(safeFileName(name))}.${extension}`;
  const encoded = Buffer.from(safe, 'utf8')
    .toString('latin1')
    .replace(NOT_ATTR_CHAR, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
