/**
 * SVG to PNG (svg-raster.ts), the resolution written in the file (a pHYs chunk), so a layout
 * program places the image at its printed size. The SVG holds no text elements (frame text is
 * outlines) and no external references, so no system font is loaded and nothing is fetched.
 */
import { crc32 } from 'node:zlib';
import { rasterise } from './svg-raster';

const PNG_SIGNATURE_LENGTH = 8;
const CHUNK_OVERHEAD = 12;
const METRES_PER_INCH = 0.0254;

export async function svgToPng(svg: string, dpi: number): Promise<Buffer> {
  return withResolution(await rasterise(svg), dpi);
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(CHUNK_OVERHEAD + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** The PNG with a pHYs chunk (pixels per metre, both axes) right after IHDR, replacing any it had. */
export function withResolution(png: Buffer, dpi: number): Buffer {
  const pixelsPerMetre = Math.round(dpi / METRES_PER_INCH);
  const data = Buffer.alloc(9);
  data.writeUInt32BE(pixelsPerMetre, 0);
  data.writeUInt32BE(pixelsPerMetre, 4);
  data[8] = 1; // unit: metre
  const parts: Buffer[] = [png.subarray(0, PNG_SIGNATURE_LENGTH)];
  let offset = PNG_SIGNATURE_LENGTH;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const end = offset + CHUNK_OVERHEAD + length;
    if (type !== 'pHYs') parts.push(png.subarray(offset, end));
    if (type === 'IHDR') parts.push(chunk('pHYs', data));
    offset = end;
  }
  return Buffer.concat(parts);
}

/** The resolution a PNG declares, dots per inch (rounded), or null without a pHYs chunk in metres. */
export function pngResolution(png: Buffer): number | null {
  let offset = PNG_SIGNATURE_LENGTH;
  while (offset + 8 <= png.length) {
    const length = png.readUInt32BE(offset);
    if (png.toString('latin1', offset + 4, offset + 8) === 'pHYs' && png[offset + 16] === 1) {
      return Math.round(png.readUInt32BE(offset + 8) * METRES_PER_INCH);
    }
    offset += CHUNK_OVERHEAD + length;
  }
  return null;
}
