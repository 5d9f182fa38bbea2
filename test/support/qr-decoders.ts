/**
 * Test helper: three independent QR decoders over one raster, so a rendering that only one
 * decoder's quirks accept does not pass. jsQR (JavaScript, one sample per module), zxing-cpp
 * (zxing-wasm: the ZXing family phones and point-of-sale readers use; tryHarder, downscaling and
 * inversion on, its defaults) and ZBar (@undecaf/zbar-wasm: the reader of zbarimg and many
 * Linux/desktop tools). All run in-process from node_modules; nothing is installed on the machine.
 *
 * The .wasm modules are compiled once per process (per jest test file) and reused.
 */
import { readFileSync } from 'node:fs';
import type * as ZBarModule from '@undecaf/zbar-wasm' with { 'resolution-mode': 'import' };
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { decodeRaster, rasteriseSvg, type RasterImage } from './decode-svg';

// The package is an ES module with a CommonJS build; its types are declared for the ES module.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ZBarConfigType, ZBarScanner, ZBarSymbolType, scanRGBABuffer } = require('@undecaf/zbar-wasm') as typeof ZBarModule;

export const DECODER_NAMES = ['jsqr', 'zxing', 'zbar'] as const;
export type DecoderName = (typeof DECODER_NAMES)[number];

/** What each decoder read (null: no code found). */
export type DecodeResults = Record<DecoderName, string | null>;

const utf8 = new TextDecoder('utf-8');

let zxingPrepared = false;
function prepareZxing(): void {
  if (zxingPrepared) return;
  const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  void prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
    fireImmediately: true,
  });
  zxingPrepared = true;
}

export async function decodeWithZxing(image: RasterImage): Promise<string | null> {
  prepareZxing();
  const results = await readBarcodes(
    // zxing-wasm takes an ImageData; any { data, width, height } with RGBA bytes is read alike.
    { data: image.pixels, width: image.width, height: image.height, colorSpace: 'srgb' } as ImageData,
    { formats: ['QRCode'], maxNumberOfSymbols: 1 },
  );
  const valid = results.find((result) => result.isValid);
  // The payload bytes, decoded as UTF-8 like the other two: zxing's own text follows the ECI/guess.
  return valid ? utf8.decode(valid.bytes) : null;
}

let zbarScanner: Promise<ZBarModule.ZBarScanner> | undefined;
/** One scanner, QR only (the linear symbologies would only cost time), payload bytes undecoded. */
function scanner(): Promise<ZBarModule.ZBarScanner> {
  zbarScanner ??= ZBarScanner.create().then((created) => {
    created.setConfig(ZBarSymbolType.ZBAR_NONE, ZBarConfigType.ZBAR_CFG_ENABLE, 0);
    created.setConfig(ZBarSymbolType.ZBAR_QRCODE, ZBarConfigType.ZBAR_CFG_ENABLE, 1);
    created.setConfig(ZBarSymbolType.ZBAR_QRCODE, ZBarConfigType.ZBAR_CFG_BINARY, 1);
    return created;
  });
  return zbarScanner;
}

export async function decodeWithZbar(image: RasterImage): Promise<string | null> {
  const { pixels } = image;
  // scanRGBABuffer reads the whole buffer: hand it exactly this image's bytes.
  const buffer = pixels.byteOffset === 0 && pixels.byteLength === pixels.buffer.byteLength ? pixels.buffer : pixels.slice().buffer;
  const symbols = await scanRGBABuffer(buffer as ArrayBuffer, image.width, image.height, await scanner());
  const qr = symbols.find((symbol) => symbol.type === ZBarSymbolType.ZBAR_QRCODE);
  return qr ? utf8.decode(new Uint8Array(qr.data.buffer, qr.data.byteOffset, qr.data.byteLength)) : null;
}

/** Reads the raster with all three decoders; dark-on-light only for jsQR (the service draws no inverted codes). */
export async function decodeWithAll(image: RasterImage): Promise<DecodeResults> {
  return {
    jsqr: decodeRaster(image, 'dontInvert'),
    zxing: await decodeWithZxing(image),
    zbar: await decodeWithZbar(image),
  };
}

/** The decoders that did not read exactly `text`. */
export function misreadBy(results: DecodeResults, text: string): DecoderName[] {
  return DECODER_NAMES.filter((name) => results[name] !== text);
}

/**
 * Raster widths at which an image is looked at, first its own: a camera never sees a code at
 * exactly its pixel grid, so a decoder that misses the native raster gets the image slightly
 * smaller and larger (±3 %, ±10 %), and from further away (down to 150 px wide, a code across a
 * fifth of a phone camera's frame). Never larger than 110 %: a small image must hold up at its own
 * pixels, not at a 2× screen's.
 */
export function cameraWidths(size: number): number[] {
  const scales = [0.97, 1.03, 0.9, 1.1, 0.75, 0.6, 0.5, 0.4, 0.3, 0.2, 0.15];
  const widths = scales.map((scale) => Math.round(size * scale)).filter((width) => width >= Math.min(150, size * 0.9));
  return [size, ...new Set(widths)];
}

/** Per decoder: the raster width at which it read exactly the text, or null when it never did. */
export type ReadWidths = Record<DecoderName, number | null>;

const SINGLE_DECODERS: Record<DecoderName, (image: RasterImage) => Promise<string | null>> = {
  jsqr: (image) => Promise.resolve(decodeRaster(image, 'dontInvert')),
  zxing: decodeWithZxing,
  zbar: decodeWithZbar,
};

/**
 * Reads the SVG with every decoder at its native raster, then (unless `nativeOnly`) at cameraWidths
 * for the decoders that missed.
 */
export async function readWidths(svg: string, size: number, text: string, nativeOnly = false): Promise<ReadWidths> {
  const native = await decodeWithAll(rasteriseSvg(svg));
  const widths: ReadWidths = { jsqr: null, zxing: null, zbar: null };
  for (const name of DECODER_NAMES) if (native[name] === text) widths[name] = size;
  for (const width of nativeOnly ? [] : cameraWidths(size).slice(1)) {
    const missing = DECODER_NAMES.filter((name) => widths[name] === null);
    if (missing.length === 0) break;
    const image = rasteriseSvg(svg, width);
    for (const name of missing) if ((await SINGLE_DECODERS[name](image)) === text) widths[name] = width;
  }
  return widths;
}
