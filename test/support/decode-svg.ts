/**
 * Test helper: rasterises an SVG with resvg and reads it back with jsQR, the way a scanner looking
 * at the image on a white page would. Returns the decoded text, or null when no code is found.
 */
import { Resvg } from '@resvg/resvg-js';
import jsQR from 'jsqr';

export interface DecodeSvgOptions {
  /** raster width in pixels; default: the SVG's own width */
  width?: number;
}

const utf8 = new TextDecoder('utf-8');

export function rasteriseSvg(svg: string, options: DecodeSvgOptions = {}): { pixels: Uint8ClampedArray; width: number; height: number } {
  const resvg = new Resvg(svg, {
    fitTo: options.width ? { mode: 'width', value: options.width } : { mode: 'original' },
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

export function decodeSvg(svg: string, options: DecodeSvgOptions = {}): string | null {
  const { pixels, width, height } = rasteriseSvg(svg, options);
  const code = jsQR(pixels, width, height, { inversionAttempts: 'attemptBoth' });
  // binaryData holds the payload bytes: decoding them as UTF-8 round-trips non-ASCII text.
  return code ? utf8.decode(Uint8Array.from(code.binaryData)) : null;
}
