/**
 * Test helper: four independent QR decoders over one raster, so a rendering that only one
 * decoder's quirks accept does not pass. jsQR (JavaScript, one sample per module), zxing-cpp 2.x
 * (zxing-wasm: the ZXing family phones and point-of-sale readers use; tryHarder, downscaling and
 * inversion on, its defaults), zxing-cpp 1.4 (Debian's python3-zxing-cpp: ZXing's classic finder
 * detector, the one of zxing-cpp 1.x and of the ZXing Java library many Android scanner apps
 * embed; zxing-cpp-1-reader.py) and ZBar (@undecaf/zbar-wasm: the reader of zbarimg and many
 * Linux/desktop tools).
 *
 * The .wasm modules are compiled once per process (per jest test file or decode worker) and
 * reused; the zxing-cpp 1.4 reader is one Python process per process or worker thread.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as ZBarModule from '@undecaf/zbar-wasm' with { 'resolution-mode': 'import' };
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { decodeRaster, rasteriseSvg, type RasterImage } from './decode-svg';

// The package is an ES module with a CommonJS build; its types are declared for the ES module.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ZBarConfigType, ZBarScanner, ZBarSymbolType, scanRGBABuffer } = require('@undecaf/zbar-wasm') as typeof ZBarModule;

export const DECODER_NAMES = ['jsqr', 'zxing', 'zxing1', 'zbar'] as const;
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

/** Debian installs the module for its own interpreter (/usr/lib/python3/dist-packages), not for another python3 on the PATH. */
const DEBIAN_PYTHON = '/usr/bin/python3';
const ZXING_CPP_1_READER = join(__dirname, 'zxing-cpp-1-reader.py');
const NOT_READ = 0xffffffff;

/**
 * The zxing-cpp 1.4 reader process (zxing-cpp-1-reader.py): started on the first image, then fed
 * image after image over stdin; answers come back in order. It holds the event loop only while an
 * image is being read, and ends when its stdin closes (this process or worker ending) or at
 * stopZxingCpp1Reader.
 */
class ZxingCpp1Reader {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending: Array<{ resolve: (text: string | null) => void; reject: (error: Error) => void }> = [];
  private received = Buffer.alloc(0);
  private stderr = '';
  private failure: Error | undefined;

  constructor() {
    this.child = spawn(DEBIAN_PYTHON, [ZXING_CPP_1_READER], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child.on('error', (error) => this.fail(error.message));
    // Writing to a reader that has exited fails with EPIPE; its stderr (in the message) says why.
    this.child.stdin.on('error', (error) => this.fail(error.message));
    this.child.on('exit', (code, signal) => this.fail(`exited (${signal ?? code})`));
    this.hold(false);
  }

  read(image: RasterImage): Promise<string | null> {
    if (this.failure) return Promise.reject(this.failure);
    const header = Buffer.alloc(8);
    header.writeUInt32LE(image.width, 0);
    header.writeUInt32LE(image.height, 4);
    this.child.stdin.write(header);
    this.child.stdin.write(Buffer.from(image.pixels.buffer, image.pixels.byteOffset, image.pixels.byteLength));
    this.hold(true);
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  }

  stop(): void {
    this.child.stdin.end();
    this.child.kill();
  }

  private receive(chunk: Buffer): void {
    this.received = Buffer.concat([this.received, chunk]);
    while (this.received.length >= 4) {
      const length = this.received.readUInt32LE(0);
      const payloadLength = length === NOT_READ ? 0 : length;
      if (this.received.length < 4 + payloadLength) return;
      const text = length === NOT_READ ? null : utf8.decode(this.received.subarray(4, 4 + payloadLength));
      this.received = this.received.subarray(4 + payloadLength);
      this.pending.shift()?.resolve(text);
    }
    if (this.pending.length === 0) this.hold(false);
  }

  private fail(reason: string): void {
    this.failure ??= new Error(
      `zxing-cpp 1.4 reader: ${reason}: ${this.stderr.trim() || 'no output'}; is python3-zxing-cpp installed (apt-get install python3-zxing-cpp)?`,
    );
    for (const waiting of this.pending.splice(0)) waiting.reject(this.failure);
    if (zxingCpp1Reader === this) zxingCpp1Reader = undefined;
  }

  /** Keeps the event loop alive for an answer; an idle reader does not keep its process running. */
  private hold(busy: boolean): void {
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as Array<{ ref(): void; unref(): void }>) {
      if (busy) handle.ref();
      else handle.unref();
    }
  }
}

let zxingCpp1Reader: ZxingCpp1Reader | undefined;

export function decodeWithZxingCpp1(image: RasterImage): Promise<string | null> {
  zxingCpp1Reader ??= new ZxingCpp1Reader();
  return zxingCpp1Reader.read(image);
}

/** Ends this process's (or worker thread's) zxing-cpp 1.4 reader, if one was started. */
export function stopZxingCpp1Reader(): void {
  zxingCpp1Reader?.stop();
  zxingCpp1Reader = undefined;
}

const SINGLE_DECODERS: Record<DecoderName, (image: RasterImage) => Promise<string | null>> = {
  jsqr: (image) => Promise.resolve(decodeRaster(image, 'dontInvert')),
  zxing: decodeWithZxing,
  zxing1: decodeWithZxingCpp1,
  zbar: decodeWithZbar,
};

/**
 * Reads the raster with all four decoders (or those named); dark-on-light only for jsQR (the service
 * draws no inverted codes). A decoder left out reads null.
 */
export async function decodeWithAll(image: RasterImage, decoders: readonly DecoderName[] = DECODER_NAMES): Promise<DecodeResults> {
  const results = Object.fromEntries(DECODER_NAMES.map((name) => [name, null])) as DecodeResults;
  for (const name of decoders) results[name] = await SINGLE_DECODERS[name](image);
  return results;
}

/** Whether Debian's python3-zxing-cpp (the zxing-cpp 1.4 decoder) is installed: a spec that cannot run it says so. */
export function zxingCpp1Available(): boolean {
  return spawnSync(DEBIAN_PYTHON, ['-c', 'import zxingcpp'], { stdio: 'ignore' }).status === 0;
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

/**
 * How a raster is looked at beyond its own pixels: `half`, the image scaled down by half (each
 * output pixel the mean of a 2×2 block, as an image viewer or a page shrinks it); `blur`, a 3×3 box
 * blur (radius 1 pixel, a camera slightly out of focus). Dots, rings and centres whose runs only
 * hold at sharp pixels fail here first.
 */
export const READ_CONDITIONS = ['own', 'half', 'blur'] as const;
export type ReadCondition = (typeof READ_CONDITIONS)[number];

export function downscaledByHalf(image: RasterImage): RasterImage {
  const width = Math.floor(image.width / 2);
  const height = Math.floor(image.height / 2);
  const source = image.pixels;
  const pixels = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const top = (2 * y * image.width + 2 * x) * 4;
      const bottom = top + image.width * 4;
      for (let channel = 0; channel < 4; channel++) {
        const sum = source[top + channel] + source[top + 4 + channel] + source[bottom + channel] + source[bottom + 4 + channel];
        pixels[(y * width + x) * 4 + channel] = (sum + 2) >> 2;
      }
    }
  }
  return { pixels, width, height };
}

/** Box blur of radius `radius` px, separable (rows, then columns); edges repeat their last pixel. */
export function boxBlurred(image: RasterImage, radius = 1): RasterImage {
  const { width, height } = image;
  const pass = (source: Uint8ClampedArray, horizontal: boolean): Uint8ClampedArray => {
    const out = new Uint8ClampedArray(source.length);
    const span = 2 * radius + 1;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        for (let channel = 0; channel < 4; channel++) {
          let sum = 0;
          for (let step = -radius; step <= radius; step++) {
            const sx = horizontal ? Math.min(width - 1, Math.max(0, x + step)) : x;
            const sy = horizontal ? y : Math.min(height - 1, Math.max(0, y + step));
            sum += source[(sy * width + sx) * 4 + channel];
          }
          out[(y * width + x) * 4 + channel] = Math.round(sum / span);
        }
      }
    }
    return out;
  };
  return { pixels: pass(pass(image.pixels, true), false), width, height };
}

const CONDITION_VIEWS: Record<ReadCondition, (image: RasterImage) => RasterImage> = {
  own: (image) => image,
  half: downscaledByHalf,
  blur: (image) => boxBlurred(image, 1),
};

export interface ReadOptions {
  /** read the raster at the image's own size only, not at cameraWidths */
  nativeOnly?: boolean;
  /** how each raster is looked at; default `own` */
  condition?: ReadCondition;
  /** the decoders that read; default all four (the others report null) */
  decoders?: readonly DecoderName[];
}

/**
 * Reads the SVG with every decoder at its native raster, then (unless `nativeOnly`) at cameraWidths
 * for the decoders that missed; each raster seen under `condition`. The widths reported are the
 * rasterised ones, before a `half` view halves them.
 */
export async function readWidths(svg: string, size: number, text: string, options: ReadOptions = {}): Promise<ReadWidths> {
  const view = CONDITION_VIEWS[options.condition ?? 'own'];
  const decoders = options.decoders ?? DECODER_NAMES;
  const native = await decodeWithAll(view(rasteriseSvg(svg)), decoders);
  const widths = Object.fromEntries(DECODER_NAMES.map((name) => [name, null])) as ReadWidths;
  for (const name of decoders) if (native[name] === text) widths[name] = size;
  for (const width of options.nativeOnly ? [] : cameraWidths(size).slice(1)) {
    const missing = decoders.filter((name) => widths[name] === null);
    if (missing.length === 0) break;
    const image = view(rasteriseSvg(svg, width));
    for (const name of missing) if ((await SINGLE_DECODERS[name](image)) === text) widths[name] = width;
  }
  return widths;
}
