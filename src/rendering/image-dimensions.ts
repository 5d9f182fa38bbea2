/**
 * Width and height of a PNG, JPEG or WebP logo read from the header bytes of its `data:` URI, so
 * the logo area keeps the image's aspect ratio as qr-code-styling (which loads the image) does.
 * Only the first bytes are decoded; null when the header cannot be read.
 */

export interface ImageDimensions {
  width: number;
  height: number;
}

const DATA_URI = /^data:image\/(png|jpeg|webp);base64,/i;
/** Bytes decoded first for JPEG, where the frame header follows optional metadata segments. */
const JPEG_FIRST_READ = 16 * 1024;

/** Decodes at least `byteCount` bytes (when there are that many) from the start of base64 text. */
function decodeBase64Prefix(base64: string, byteCount: number): Buffer {
  const characters = Math.ceil(byteCount / 3) * 4;
  return Buffer.from(base64.length > characters ? base64.slice(0, characters) : base64, 'base64');
}

function pngDimensions(bytes: Buffer): ImageDimensions | null {
  // Signature (8 bytes), IHDR length and type (8 bytes), then width and height, big-endian.
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function isJpegFrameHeader(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegDimensions(bytes: Buffer): ImageDimensions | null {
  let offset = 2;
  while (offset + 9 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset++;
      continue;
    }
    if (isJpegFrameHeader(marker)) {
      return { width: bytes.readUInt16BE(offset + 7), height: bytes.readUInt16BE(offset + 5) };
    }
    offset += 2 + bytes.readUInt16BE(offset + 2);
  }
  return null;
}

/** RIFF header, then the first chunk: lossy (VP8), lossless (VP8L) or extended (VP8X). */
function webpDimensions(bytes: Buffer): ImageDimensions | null {
  if (bytes.length < 16 || bytes.toString('latin1', 8, 12) !== 'WEBP') return null;
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && bytes.length >= 30) {
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L' && bytes.length >= 25) {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X' && bytes.length >= 30) {
    return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  }
  return null;
}

export function imageDimensions(dataUri: string): ImageDimensions | null {
  const match = DATA_URI.exec(dataUri);
  if (!match) return null;
  const base64 = dataUri.slice(match[0].length);
  let dimensions: ImageDimensions | null;
  switch (match[1].toLowerCase()) {
    case 'png':
      dimensions = pngDimensions(decodeBase64Prefix(base64, 24));
      break;
    case 'webp':
      dimensions = webpDimensions(decodeBase64Prefix(base64, 30));
      break;
    default:
      dimensions =
        jpegDimensions(decodeBase64Prefix(base64, JPEG_FIRST_READ)) ??
        (base64.length > (JPEG_FIRST_READ / 3) * 4 ? jpegDimensions(Buffer.from(base64, 'base64')) : null);
  }
  return dimensions && dimensions.width > 0 && dimensions.height > 0 ? dimensions : null;
}
