/**
 * Test helper: rasterises an SVG with resvg and reads it back with jsQR, the way a scanner looking
 * at the image on a white page would. Returns the decoded text, or null when no code is found.
 *
 * jsQR samples one pixel per module and does not blur, unlike a phone camera, so it misses codes a
 * phone reads: circular `dots` modules at high resolution (their finder centres fall apart into
 * separate circles) and corner-cutting shapes at two pixels per module (the sampled pixel lands in
 * a cut corner). `widths` lets a test look at the image at several raster widths, as a camera sees
 * a code from different distances (zxing-cpp's `tryDownscale` does the same); the first decode wins.
 */
import { Resvg } from '@resvg/resvg-js';
import jsQR from 'jsqr';

export interface DecodeSvgOptions {
  /** raster width in pixels; default: the SVG's own width */
  width?: number;
  /** raster widths to try in order, first decode wins; default: [width] */
  widths?: readonly number[];
}

export interface RasterImage {
  /** RGBA */
  pixels: Uint8ClampedArray;
  width: number;
  height: number;
}

const utf8 = new TextDecoder('utf-8');

export function rasteriseSvg(svg: string, width?: number): RasterImage {
  const resvg = new Resvg(svg, {
    fitTo: width ? { mode: 'width', value: width } : { mode: 'original' },
    // The page behind a transparent background is taken as white.
    background: '#ffffff',
    font: { loadSystemFonts: false },
    logLevel: 'off',
  });
  const image = resvg.render();
  const { pixels } = image;
  return {
    pixels: new Uint8ClampedArray(pixels.buffer, pixels.byteOffset, pixels.byteLength),
    width: image.width,
    height: image.height,
  };
}

export function decodeRaster(image: RasterImage): string | null {
  const code = jsQR(image.pixels, image.width, image.height, { inversionAttempts: 'attemptBoth' });
  // binaryData holds the payload bytes: decoding them as UTF-8 round-trips non-ASCII text.
  return code ? utf8.decode(Uint8Array.from(code.binaryData)) : null;
}

export function decodeSvg(svg: string, options: DecodeSvgOptions = {}): string | null {
  const widths = options.widths ?? [options.width];
  for (const width of widths) {
    const text = decodeRaster(rasteriseSvg(svg, width));
    if (text !== null) return text;
  }
  return null;
}
