/**
 * The logo (`style.image`): a base64 `data:` URI of a PNG, JPEG or WebP picture. The declared type
 * alone proves nothing, so the decoded bytes must start with that format's signature. SVG is
 * refused outright: an SVG logo can carry script and external references into our SVG output.
 */

export const MAX_LOGO_BYTES = 256 * 1024;

/** Longest base64 text that can decode to MAX_LOGO_BYTES, so oversized logos are refused before decoding. */
const MAX_LOGO_BASE64_CHARS = Math.ceil(MAX_LOGO_BYTES / 3) * 4;

interface LogoFormat {
  name: string;
  hasSignature(bytes: Buffer): boolean;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);

const LOGO_FORMATS: Readonly<Record<string, LogoFormat>> = {
  'image/png': { name: 'PNG', hasSignature: (bytes) => bytes.subarray(0, 8).equals(PNG_SIGNATURE) },
  'image/jpeg': { name: 'JPEG', hasSignature: (bytes) => bytes.subarray(0, 3).equals(JPEG_SIGNATURE) },
  'image/webp': {
    name: 'WebP',
    hasSignature: (bytes) => bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP',
  },
};

/** `data:<type>[;<parameter>...],` — the header only; the payload is checked separately. */
const DATA_URI_HEADER = /^data:([^,;]*)((?:;[^,;]*)*),/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const NOT_A_LOGO = 'must be a data: URI of a PNG, JPEG or WebP image (data:image/png;base64,...)';

/** Why `value` is not an acceptable logo, or undefined when it is. */
export function findLogoProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return NOT_A_LOGO;
  const header = DATA_URI_HEADER.exec(value);
  if (!header) return NOT_A_LOGO;

  const mediaType = header[1].toLowerCase();
  if (mediaType === 'image/svg+xml') return 'must not be an SVG image (SVG logos are refused); use PNG, JPEG or WebP';
  const format = Object.hasOwn(LOGO_FORMATS, mediaType) ? LOGO_FORMATS[mediaType] : undefined;
  if (!format) return NOT_A_LOGO;
  if (header[2].toLowerCase() !== ';base64') return 'must be base64-encoded (data:image/png;base64,...)';

  const payload = value.slice(header[0].length);
  if (payload.length > MAX_LOGO_BASE64_CHARS) return 'must be at most 256 KB';
  if (payload.length % 4 !== 0 || !BASE64.test(payload)) return 'is not valid base64';
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length > MAX_LOGO_BYTES) return 'must be at most 256 KB';
  if (!format.hasSignature(bytes)) return `is declared as ${mediaType} but its content is not a ${format.name} image`;
  return undefined;
}
