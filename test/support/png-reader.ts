/** Test helper: reads Chromium's screenshots (playwright returns PNG bytes) into RGBA pixels. */
import { inflateSync } from 'node:zlib';
import type { RasterImage } from './decode-svg';

/** Minimal PNG reader for Chromium's screenshots: 8-bit RGB/RGBA, not interlaced. */
export function decodePng(png: Buffer): RasterImage {
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 4;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error('unsupported PNG');
      channels = { 2: 3, 6: 4, 0: 1, 4: 2 }[data[9]] ?? 0;
      if (channels !== 3 && channels !== 4) throw new Error(`unsupported PNG colour type ${data[9]}`);
    } else if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = new Uint8ClampedArray(width * height * 4);
  const previous = Buffer.alloc(stride);
  const current = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    raw.copy(current, 0, y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? current[i - channels] : 0;
      const up = previous[i];
      const upLeft = i >= channels ? previous[i - channels] : 0;
      let add = 0;
      if (filter === 1) add = left;
      else if (filter === 2) add = up;
      else if (filter === 3) add = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        add = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      current[i] = (current[i] + add) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      const target = (y * width + x) * 4;
      pixels[target] = current[x * channels];
      pixels[target + 1] = current[x * channels + 1];
      pixels[target + 2] = current[x * channels + 2];
      pixels[target + 3] = channels === 4 ? current[x * channels + 3] : 255;
    }
    current.copy(previous);
  }
  return { pixels, width, height };
}

/** The image laid on white, as a page or a viewer shows a PNG with transparency (decoders ignore alpha). */
export function flattenOnWhite(image: RasterImage): RasterImage {
  const pixels = new Uint8ClampedArray(image.pixels.length);
  for (let index = 0; index < pixels.length; index += 4) {
    const alpha = image.pixels[index + 3] / 255;
    for (let channel = 0; channel < 3; channel++) pixels[index + channel] = image.pixels[index + channel] * alpha + 255 * (1 - alpha);
    pixels[index + 3] = 255;
  }
  return { ...image, pixels };
}
