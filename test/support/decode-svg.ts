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
import { readFileSync } from 'node:fs';
import { runInThisContext } from 'node:vm';

type JsQR = typeof import('jsqr').default;

/**
 * jsQR evaluated in Node's own context rather than jest's sandbox: in the sandbox every global
 * lookup in its pixel loops (Math.min, Math.max…) goes through the sandbox's interceptors, which
 * makes a 1000 px decode about seven times slower.
 */
function loadJsQrOutsideSandbox(): JsQR {
  const path = require.resolve('jsqr');
  const factory = runInThisContext(`(function (module, exports) {${readFileSync(path, 'utf8')}\n})`, { filename: path }) as (
    module: { exports: unknown },
    exports: unknown,
  ) => void;
  const loaded: { exports: unknown } = { exports: {} };
  factory(loaded, loaded.exports);
  const exported = loaded.exports as JsQR | { default: JsQR };
  return typeof exported === 'function' ? exported : exported.default;
}

const jsQR = loadJsQrOutsideSandbox();

export interface DecodeSvgOptions {
  /** raster width in pixels; default: the SVG's own width */
  width?: number;
  /** raster widths to try in order, first decode wins; default: [width] */
  widths?: readonly number[];
  /** jsQR's inversionAttempts; default attemptBoth (also reads light-on-dark codes) */
  inversionAttempts?: 'dontInvert' | 'onlyInvert' | 'attemptBoth' | 'invertFirst';
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
  // A copy the JavaScript heap owns: resvg's own buffers are native memory that V8 does not count,
  // so without it the collector sees no pressure and thousands of rasters pile up (see
  // releaseNativeRasters).
  return { pixels: new Uint8ClampedArray(image.pixels), width: image.width, height: image.height };
}

/**
 * Lets the event loop turn so resvg's native rasters, already collected, are freed: Node runs
 * native finalizers from the event loop, never inside a chain of awaited promises. A loop that
 * rasterises image after image without yielding held 8 GB in the decode property's workers.
 */
export function releaseNativeRasters(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function decodeRaster(image: RasterImage, inversionAttempts: DecodeSvgOptions['inversionAttempts'] = 'attemptBoth'): string | null {
  const code = jsQR(image.pixels, image.width, image.height, { inversionAttempts });
  // binaryData holds the payload bytes: decoding them as UTF-8 round-trips non-ASCII text.
  return code ? utf8.decode(Uint8Array.from(code.binaryData)) : null;
}

export function decodeSvg(svg: string, options: DecodeSvgOptions = {}): string | null {
  const widths = options.widths ?? [options.width];
  for (const width of widths) {
    const text = decodeRaster(rasteriseSvg(svg, width), options.inversionAttempts);
    if (text !== null) return text;
  }
  return null;
}
