/**
 * Test and benchmark fixture (not used by the renderer): builds a small, valid PNG as a `data:`
 * URI — an 8-bit RGB image, one zlib-compressed IDAT chunk — for logo tests.
 */
import { deflateSync } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = Array.from({ length: 256 }, (_, byte) => {
  let value = byte;
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

export type Rgb = readonly [red: number, green: number, blue: number];

export function pngDataUri(width: number, height: number, colourAt: (x: number, y: number) => Rgb): string {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const rowLength = width * 3 + 1; // each row starts with filter type 0
  const pixels = Buffer.alloc(rowLength * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels.set(colourAt(x, y), y * rowLength + 1 + x * 3);
  }
  const png = Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** A checkered two-colour logo, as a logo with detail would look to a scanner. */
export function checkeredLogo(width = 16, height = 16): string {
  return pngDataUri(width, height, (x, y) => (((x >> 2) + (y >> 2)) % 2 ? [230, 60, 40] : [40, 90, 200]));
}

/** A round badge (orange disc, white ring, dark centre), a logo of the usual kind. */
export function badgeLogo(side = 32): string {
  const centre = (side - 1) / 2;
  return pngDataUri(side, side, (x, y) => {
    const distance = Math.hypot(x - centre, y - centre) / (side / 32);
    if (distance < 6) return [30, 40, 70];
    if (distance < 9) return [255, 255, 255];
    return [240, 120, 30];
  });
}
