/**
 * Visual parity check: renderQrSvg (our server renderer) against qr-code-styling v1.9 running in a
 * real browser, over a gallery of styles.
 *
 *   node -r @swc-node/register test/visual/gallery.ts [--only <name-substring>]
 *
 * Needs Debian's /usr/bin/chromium (driven by playwright-core; no network is used: qr-code-styling's
 * UMD bundle is injected from node_modules, every image is a data: URI). Writes to test/visual/out/
 * (git-ignored): <style>-ours.png / -qcs.png (Chromium screenshots of each SVG shown as an <img> at
 * 300×300 on a white page), <style>-diff.png (their difference, white where equal), <style>-ours.svg /
 * -qcs.svg, index.html (side-by-side gallery with options, agreement, sizes, decode results),
 * index.png (Chromium's full-page screenshot of index.html) and contact-sheet-N.png (six pairs
 * each, at full size, to look at).
 *
 * What it checks, per style:
 * - Both libraries encode the same module matrix. qr-code-styling encodes with qrcode-generator
 *   (typeNumber 0, mode from its getMode(): numeric / alphanumeric / byte, Latin-1 bytes), whose mask
 *   choice uses its own penalty score, not ISO 18004's; ours uses the ISO score, so for most texts
 *   the two pick different masks. Each gallery text is a template with a number in it: the first
 *   number for which qr-code-styling's `_qr.isDark` equals our `buildQrMatrix` at the style's level
 *   is used (the preferred numbers below were found that way), and mismatches are reported.
 * - Agreement: both screenshots are sampled at every module centre (the module grid of each render
 *   is measured from its finder patterns and cross-checked with the library's layout rule); a
 *   module is dark when its luminance is below the midpoint between the style's lightest
 *   foreground and darkest background colour. Agreement = modules classified alike / modules
 *   compared. Modules whose centre lies under the logo image (in either render) are left out and
 *   reported apart, as are the circle shape's decorative modules outside the code. Target ≥ 99%.
 * - Size of the SVG markup, ours vs theirs.
 * - Whether our render decodes: jsQR on resvg's raster (test/support/decode-svg.ts decodeSvg) and
 *   zxing-wasm (zxing-wasm/reader, its .wasm loaded from node_modules) on the Chromium screenshot.
 *   qr-code-styling's render is decoded too, for reference.
 *
 * Exit code 1 when a style is under 99%, or one of our renders is read by neither decoder at any
 * raster width while qr-code-styling's drawing of the same style is.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { pngDataUri } from '../../src/rendering/__fixtures__/png-data-uri';
import { defaultMargin, layoutCode } from '../../src/rendering/code-layout';
import { encodeDataCodewords } from '../../src/rendering/qr-encoder/data-codewords';
import { interleaveWithErrorCorrection } from '../../src/rendering/qr-encoder/reed-solomon';
import { createSymbolGrid, placeCodewords, placeFormatBits } from '../../src/rendering/qr-encoder/symbol-layout';
import { blockStructure } from '../../src/rendering/qr-encoder/symbol-tables';
import { minimumDrawnVersion } from '../../src/rendering/drawn-version';
import { buildQrMatrix } from '../../src/rendering/qr-matrix';
import { renderQrSvg } from '../../src/rendering/render-qr-svg';
import { resolveErrorCorrectionLevel, type ErrorCorrectionLevel, type Gradient, type QrStyle } from '../../src/rendering/style';
import { decodeRaster, decodeSvg, rasteriseSvg, type RasterImage } from '../support/decode-svg';
import { decodePng } from '../support/png-reader';
import { type AppliedDefault, type FinderTypes, resolveFinderTypes } from '../../src/rendering/style/finder-defaults';

const SIZE = 300;
const TARGET = 0.99;
const OUT = join(__dirname, 'out');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// ---------------------------------------------------------------------------------------------
// Texts: `{}` is replaced by a number; `prefer` is tried first (found to give the same matrix in
// both encoders at every level the gallery uses it with), then 0, 1, 2… until the matrices agree.

interface TextTemplate {
  name: string;
  template: string;
  prefer: number;
}

const MAIN: TextTemplate = { name: 'main', template: 'https://example.com/qr-gallery?v={}', prefer: 194 };
const LONG: TextTemplate = {
  name: 'long',
  template: 'https://example.com/Gallery/Longer-Path/With-Several-Segments/and-a-query?page={}&sort=Name&filter=active-items',
  prefer: 38,
};
const LONGER: TextTemplate = {
  name: 'longer',
  template:
    'https://example.com/docs/Lorem-Ipsum/dolor-sit-amet/consectetur-adipiscing-elit/sed-do-eiusmod-tempor/' +
    'incididunt-ut-labore/et-dolore-magna-aliqua/Ut-enim-ad-minim-veniam?id={}',
  prefer: 0,
};
/** Texts only reported on (matrix comparison), not drawn. */
const REPORTED_TEXTS = [
  'https://example.com/qr-gallery',
  'HTTPS://EXAMPLE.COM/QR-GALLERY',
  '12345678901234567890',
  'Grüße aus Köln – https://example.com',
];
const SEARCH_LIMIT = 400;

// ---------------------------------------------------------------------------------------------
// Logos: small PNGs made here.

/** 32×32: orange rounded badge with a white ring and dark centre. */
const LOGO_SQUARE = pngDataUri(32, 32, (x, y) => {
  const d = Math.hypot(x - 15.5, y - 15.5);
  if (d < 6) return [30, 40, 70];
  if (d < 9) return [255, 255, 255];
  return [240, 120, 30];
});
/** 48×24: wide two-colour banner. */
const LOGO_WIDE = pngDataUri(48, 24, (x, y) => (x < 24 ? [40, 90, 200] : (x + y) % 8 < 4 ? [230, 60, 40] : [250, 200, 40]));

// ---------------------------------------------------------------------------------------------
// The gallery.

const twoStops = (from: string, to: string) => [
  { offset: 0, color: from },
  { offset: 1, color: to },
];
const linear = (rotation: number, from = '#123456', to = '#8a1c5c'): Gradient => ({ type: 'linear', rotation, colorStops: twoStops(from, to) });
const radial = (from = '#0b3d2e', to = '#5a2d82'): Gradient => ({ type: 'radial', colorStops: twoStops(from, to) });

interface GalleryStyle {
  name: string;
  text: TextTemplate;
  style: QrStyle;
}

const GALLERY: GalleryStyle[] = [
  { name: 'plain-defaults', text: MAIN, style: {} },
  { name: 'dots-default-corners', text: MAIN, style: { dotsOptions: { type: 'dots' } } },
  {
    name: 'dots-extra-rounded-ring-default-centre',
    text: MAIN,
    style: { dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'extra-rounded' } },
  },
  {
    name: 'dots-circle-square-ring-default-centre',
    text: MAIN,
    style: { shape: 'circle', dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'square' } },
  },
  {
    name: 'dots-loose-ring-square-centre',
    text: MAIN,
    style: { dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'dots' }, cornersDotOptions: { type: 'square' } },
  },
  { name: 'rounded', text: MAIN, style: { dotsOptions: { type: 'rounded' } } },
  { name: 'classy', text: MAIN, style: { dotsOptions: { type: 'classy' } } },
  { name: 'classy-rounded', text: MAIN, style: { dotsOptions: { type: 'classy-rounded' } } },
  { name: 'extra-rounded-unset-corners', text: MAIN, style: { dotsOptions: { type: 'extra-rounded' } } },
  {
    name: 'corners-square-square',
    text: MAIN,
    style: {
      dotsOptions: { type: 'rounded' },
      cornersSquareOptions: { type: 'square', color: '#aa0000' },
      cornersDotOptions: { type: 'square', color: '#0000aa' },
    },
  },
  {
    name: 'corners-dot-dot',
    text: MAIN,
    style: { dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'dot' }, cornersDotOptions: { type: 'dot' } },
  },
  // Mixed pairs: the centre is fitted to its ring (docs/styling-and-scannability.md#finder-centres).
  {
    name: 'corners-square-ring-dot-centre',
    text: MAIN,
    style: { dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'square' }, cornersDotOptions: { type: 'dot' } },
  },
  {
    name: 'corners-dot-ring-square-centre',
    text: MAIN,
    style: { dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'dot' }, cornersDotOptions: { type: 'square' } },
  },
  // The two families ZXing's classic detector (zxing-cpp 1.x) missed before every centre was fitted to a round ring.
  {
    name: 'corners-dot-ring-square-dots',
    text: MAIN,
    style: { dotsOptions: { type: 'square' }, cornersSquareOptions: { type: 'dot' } },
  },
  {
    name: 'corners-dot-ring-classy-centre',
    text: MAIN,
    style: { dotsOptions: { type: 'rounded' }, cornersSquareOptions: { type: 'dot' }, cornersDotOptions: { type: 'classy' } },
  },
  {
    name: 'dots-default-ring-square-centre',
    text: MAIN,
    style: { dotsOptions: { type: 'dots' }, cornersDotOptions: { type: 'square' } },
  },
  {
    name: 'corners-extra-rounded-ring-classy-rounded-centre',
    text: MAIN,
    style: { dotsOptions: { type: 'classy' }, cornersSquareOptions: { type: 'extra-rounded' }, cornersDotOptions: { type: 'classy-rounded' } },
  },
  {
    name: 'corners-extra-rounded-dot',
    text: MAIN,
    style: { dotsOptions: { type: 'classy' }, cornersSquareOptions: { type: 'extra-rounded', color: '#1b4332' }, cornersDotOptions: { type: 'dot' } },
  },
  {
    name: 'corners-dots-type-fallback',
    text: MAIN,
    style: {
      dotsOptions: { type: 'square' },
      cornersSquareOptions: { type: 'classy-rounded' },
      cornersDotOptions: { type: 'rounded', color: '#7b2cbf' },
    },
  },
  { name: 'solid-colours', text: MAIN, style: { dotsOptions: { type: 'rounded', color: '#1d3557' }, backgroundOptions: { color: '#f1faee' } } },
  { name: 'linear-0deg', text: MAIN, style: { dotsOptions: { type: 'square', gradient: linear(0) } } },
  { name: 'linear-45deg-rounded', text: MAIN, style: { dotsOptions: { type: 'rounded', gradient: linear(45, '#0d1b2a', '#c1121f') } } },
  { name: 'linear-120deg-classy', text: MAIN, style: { dotsOptions: { type: 'classy', gradient: linear(120, '#3a0ca3', '#06402b') } } },
  { name: 'linear-250deg-dots', text: MAIN, style: { dotsOptions: { type: 'dots', gradient: linear(250, '#222222', '#9d0208') } } },
  { name: 'radial-dots', text: MAIN, style: { dotsOptions: { type: 'extra-rounded', gradient: radial() } } },
  {
    name: 'corner-gradients',
    text: MAIN,
    style: {
      dotsOptions: { type: 'classy-rounded', color: '#222222' },
      cornersSquareOptions: { type: 'extra-rounded', gradient: linear(45, '#003049', '#d62828') },
      cornersDotOptions: { type: 'dot', gradient: radial('#6a040f', '#370617') },
    },
  },
  {
    name: 'background-gradient',
    text: MAIN,
    style: { dotsOptions: { type: 'rounded', color: '#14213d' }, backgroundOptions: { gradient: linear(30, '#ffffff', '#fde2b0') } },
  },
  {
    name: 'background-round',
    text: MAIN,
    style: { dotsOptions: { type: 'dots', color: '#283618' }, backgroundOptions: { color: '#e9edc9', round: 0.4 } },
  },
  { name: 'background-transparent', text: MAIN, style: { dotsOptions: { type: 'classy' }, backgroundOptions: { color: 'transparent' } } },
  { name: 'shape-circle-rounded', text: MAIN, style: { shape: 'circle', dotsOptions: { type: 'rounded', color: '#1a1a2e' } } },
  { name: 'shape-circle-square-margin8', text: MAIN, style: { shape: 'circle', margin: 8, backgroundOptions: { color: '#fff8e7', round: 1 } } },
  {
    name: 'shape-circle-roundSize-false',
    text: MAIN,
    style: { shape: 'circle', dotsOptions: { type: 'rounded', roundSize: false, color: '#2b2d42' } },
  },
  { name: 'margin-0', text: MAIN, style: { margin: 0, dotsOptions: { type: 'classy-rounded' } } },
  { name: 'margin-30', text: MAIN, style: { margin: 30, dotsOptions: { type: 'extra-rounded', color: '#3d405b' } } },
  { name: 'logo-hide-0.4', text: MAIN, style: { image: LOGO_SQUARE, dotsOptions: { type: 'rounded' } } },
  { name: 'logo-nohide-0.2', text: MAIN, style: { image: LOGO_SQUARE, imageOptions: { hideBackgroundDots: false, imageSize: 0.2 } } },
  { name: 'logo-margin-6', text: MAIN, style: { image: LOGO_SQUARE, imageOptions: { imageSize: 0.4, margin: 6 }, dotsOptions: { type: 'classy' } } },
  {
    name: 'logo-wide-hide-0.2-Q',
    text: MAIN,
    style: { image: LOGO_WIDE, imageOptions: { imageSize: 0.2 }, qrOptions: { errorCorrectionLevel: 'Q' } },
  },
  { name: 'roundSize-false-extra-rounded', text: MAIN, style: { margin: 7, dotsOptions: { type: 'extra-rounded', roundSize: false } } },
  { name: 'roundSize-false-square', text: MAIN, style: { dotsOptions: { type: 'square', roundSize: false } } },
  { name: 'ecl-L', text: MAIN, style: { qrOptions: { errorCorrectionLevel: 'L' }, dotsOptions: { type: 'dots' } } },
  { name: 'ecl-Q', text: MAIN, style: { qrOptions: { errorCorrectionLevel: 'Q' }, dotsOptions: { type: 'classy' } } },
  { name: 'ecl-H', text: MAIN, style: { qrOptions: { errorCorrectionLevel: 'H' }, dotsOptions: { type: 'rounded' } } },
  { name: 'long-v7-classy-rounded', text: LONG, style: { dotsOptions: { type: 'classy-rounded', color: '#264653' } } },
  { name: 'long-v7-logo-H', text: LONG, style: { image: LOGO_SQUARE, dotsOptions: { type: 'dots' } } },
  { name: 'longer-dots-L', text: LONGER, style: { qrOptions: { errorCorrectionLevel: 'L' }, dotsOptions: { type: 'dots' } } },
  { name: 'longer-square-M', text: LONGER, style: {} },
];

// ---------------------------------------------------------------------------------------------
// Helpers: colours, PNG decoding, options for qr-code-styling.

type Rgb = [number, number, number];

function parseHex(color: string): { rgb: Rgb; alpha: number } {
  let hex = color.replace('#', '');
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  const value = (i: number) => parseInt(hex.slice(i, i + 2), 16);
  return { rgb: [value(0), value(2), value(4)], alpha: hex.length === 8 ? value(6) / 255 : 1 };
}

function luma([r, g, b]: readonly number[]): number {
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Colour over white. */
function composited(color: string): Rgb {
  const { rgb, alpha } = parseHex(color);
  return rgb.map((c) => c * alpha + 255 * (1 - alpha)) as Rgb;
}

function paintLumas(options: { color?: string; gradient?: Gradient } | undefined): number[] | null {
  if (!options) return null;
  if (options.gradient) return options.gradient.colorStops.map((stop) => luma(composited(stop.color)));
  if (options.color && options.color !== 'transparent') return [luma(composited(options.color))];
  if (options.color === 'transparent') return [255];
  return null;
}

/** Midpoint between the lightest foreground colour and the darkest background colour. */
function darkThreshold(style: QrStyle): { threshold: number; foreground: number; background: number } {
  const foreground = Math.max(
    ...(paintLumas(style.dotsOptions) ?? [0]),
    ...(paintLumas(style.cornersSquareOptions) ?? []),
    ...(paintLumas(style.cornersDotOptions) ?? []),
  );
  const background = Math.min(...(paintLumas(style.backgroundOptions) ?? [255]));
  return { threshold: (foreground + background) / 2, foreground, background };
}

/** qr-code-styling takes gradient rotation in radians; our style (the spec) in degrees. */
function inRadians(style: QrStyle): QrStyle {
  const copy = structuredClone(style);
  for (const options of [copy.dotsOptions, copy.cornersSquareOptions, copy.cornersDotOptions, copy.backgroundOptions]) {
    if (options?.gradient) options.gradient.rotation = ((options.gradient.rotation ?? 0) * Math.PI) / 180;
  }
  return copy;
}

/** The style with the finder types our renderer resolved written out, as qr-code-styling needs them. */
function withFinderTypes(style: QrStyle, finders: FinderTypes): QrStyle {
  return {
    ...style,
    ...(finders.cornersSquareType ? { cornersSquareOptions: { ...style.cornersSquareOptions, type: finders.cornersSquareType } } : {}),
    ...(finders.cornersDotType ? { cornersDotOptions: { ...style.cornersDotOptions, type: finders.cornersDotType } } : {}),
  };
}

/** The margin our renderer uses (its default is a four-module quiet zone; qr-code-styling's is 0). */
function effectiveMargin(style: QrStyle, moduleCount: number): number {
  return style.margin ?? defaultMargin(SIZE, moduleCount, style.shape ?? 'square');
}

function qcsOptions(text: string, style: QrStyle, level: ErrorCorrectionLevel, moduleCount: number, version: number): Record<string, unknown> {
  const converted = inRadians(style);
  return {
    ...converted,
    type: 'svg',
    width: SIZE,
    height: SIZE,
    data: text,
    margin: effectiveMargin(style, moduleCount),
    // Our renderer may draw a larger version than the text needs (a logo on a short text,
    // src/rendering/drawn-version.ts): qr-code-styling is given the same version to compare.
    qrOptions: { errorCorrectionLevel: level, typeNumber: version },
    // saveAsBlob would re-read the data: URI through XHR; the URI itself is what it would produce.
    imageOptions: { ...(converted.imageOptions ?? {}), saveAsBlob: false },
  };
}

/** Format information (mask and level) read from a matrix, qrcode-generator's bit placement. */
function formatInfo(modules: ArrayLike<number>, size: number): { mask: number; level: string } {
  let bits = 0;
  for (let h = 0; h < 15; h++) {
    const row = h < 6 ? h : h < 8 ? h + 1 : size - 15 + h;
    if (modules[row * size + 8]) bits |= 1 << h;
  }
  const data = (bits ^ 0x5412) >> 10;
  return { mask: data & 7, level: ['M', 'L', 'H', 'Q'][data >> 3] };
}

// ---------------------------------------------------------------------------------------------
// Browser side (plain JS strings: tsconfig has no DOM types).

const PAGE_HELPERS = `
window.__qcsMatrix = (text, level) => {
  const qr = new QRCodeStyling({ type: 'svg', width: 300, height: 300, data: text, qrOptions: { errorCorrectionLevel: level } });
  const q = qr._qr, n = q.getModuleCount();
  let bits = '';
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) bits += q.isDark(r, c) ? '1' : '0';
  return { size: n, bits };
};
window.__qcsRender = async (options) => {
  const qr = new QRCodeStyling(options);
  const blob = await qr.getRawData('svg');
  const svg = await blob.text();
  const q = qr._qr, n = q.getModuleCount();
  let bits = '';
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) bits += q.isDark(r, c) ? '1' : '0';
  return { svg, size: n, bits };
};
`;

/** What PAGE_HELPERS adds to the page's window. */
interface PageGlobals {
  __qcsMatrix(text: string, level: string): { size: number; bits: string };
  __qcsRender(options: Record<string, unknown>): Promise<{ svg: string; size: number; bits: string }>;
}

async function openPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 900, height: 900 }, deviceScaleFactor: 1 });
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ content: readFileSync(require.resolve('qr-code-styling'), 'utf8') });
  await page.addScriptTag({ content: PAGE_HELPERS });
  return page;
}

async function qcsMatrix(page: Page, text: string, level: ErrorCorrectionLevel): Promise<{ size: number; modules: Uint8Array }> {
  const { size, bits } = await page.evaluate(([t, l]) => (globalThis as unknown as PageGlobals).__qcsMatrix(t, l), [text, level] as const);
  return { size, modules: Uint8Array.from(bits, (b) => (b === '1' ? 1 : 0)) };
}

async function qcsRender(page: Page, options: Record<string, unknown>): Promise<{ svg: string; size: number; modules: Uint8Array }> {
  const { svg, size, bits } = await page.evaluate((o) => (globalThis as unknown as PageGlobals).__qcsRender(o), options);
  return { svg, size, modules: Uint8Array.from(bits, (b) => (b === '1' ? 1 : 0)) };
}

/** Screenshot of an SVG shown as a 300×300 <img> on a white page. */
async function screenshotSvg(page: Page, svg: string): Promise<Buffer> {
  const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  await page.setContent(
    `<!doctype html><html><body style="margin:0;background:#fff">` +
      `<img id="qr" width="${SIZE}" height="${SIZE}" style="display:block" src="${src}"></body></html>`,
  );
  await page.evaluate(
    `(async () => { const img = document.getElementById('qr'); await img.decode(); ` +
      `await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); })()`,
  );
  return page.screenshot({ clip: { x: 0, y: 0, width: SIZE, height: SIZE }, type: 'png' });
}

/**
 * Difference image: the two screenshots stacked with mix-blend-mode: difference, inverted, so that
 * identical pixels are white and every difference shows dark.
 */
async function differenceImage(page: Page, ours: Buffer, theirs: Buffer): Promise<Buffer> {
  const src = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;
  await page.setContent(
    `<!doctype html><html><body style="margin:0;background:#fff">` +
      `<div style="position:relative;width:${SIZE}px;height:${SIZE}px;filter:invert(1);isolation:isolate">` +
      `<img src="${src(ours)}" style="position:absolute;left:0;top:0">` +
      `<img src="${src(theirs)}" style="position:absolute;left:0;top:0;mix-blend-mode:difference"></div></body></html>`,
  );
  await page.evaluate(`Promise.all([...document.images].map((img) => img.decode()))`);
  return page.screenshot({ clip: { x: 0, y: 0, width: SIZE, height: SIZE }, type: 'png' });
}

// ---------------------------------------------------------------------------------------------
// Matrix comparison.

const MASKS: ReadonlyArray<(i: number, j: number) => boolean> = [
  (i, j) => (i + j) % 2 === 0,
  (i) => i % 2 === 0,
  (_i, j) => j % 3 === 0,
  (i, j) => (i + j) % 3 === 0,
  (i, j) => (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0,
  (i, j) => ((i * j) % 2) + ((i * j) % 3) === 0,
  (i, j) => (((i * j) % 2) + ((i * j) % 3)) % 2 === 0,
  (i, j) => (((i + j) % 2) + ((i * j) % 3)) % 2 === 0,
];

/** Our data codewords placed and masked with the given mask instead of the one we would choose. */
function ourSymbolWithMask(text: string, level: ErrorCorrectionLevel, mask: number): Uint8Array | null {
  const data = encodeDataCodewords(text, level);
  if (!data) return null;
  const grid = createSymbolGrid(data.version, level);
  placeCodewords(grid, interleaveWithErrorCorrection(data.codewords, blockStructure(data.version, level)));
  for (let i = 0; i < grid.size; i++) {
    for (let j = 0; j < grid.size; j++) {
      const index = i * grid.size + j;
      if (!grid.isFunction[index] && MASKS[mask](i, j)) grid.modules[index] ^= 1;
    }
  }
  placeFormatBits(grid, level, mask);
  return grid.modules;
}

interface MatrixComparison {
  text: string;
  level: ErrorCorrectionLevel;
  oursSize: number;
  theirsSize: number;
  differing: number | null;
  oursMask: number;
  theirsMask: number | null;
  /** whether our codewords masked with their mask give their matrix (the data is the same) */
  sameDataOtherMask: boolean | null;
}

function compareMatrices(text: string, level: ErrorCorrectionLevel, theirs: { size: number; modules: Uint8Array }): MatrixComparison {
  const ours = buildQrMatrix(text, level);
  let differing: number | null = null;
  if (ours.size === theirs.size) {
    differing = 0;
    for (let i = 0; i < ours.modules.length; i++) if (ours.modules[i] !== theirs.modules[i]) differing++;
  }
  const theirsMask = ours.size === theirs.size ? formatInfo(theirs.modules, theirs.size).mask : null;
  let sameDataOtherMask: boolean | null = null;
  if (differing && theirsMask !== null) {
    const remasked = ourSymbolWithMask(text, level, theirsMask);
    sameDataOtherMask = remasked !== null && remasked.every((v, i) => v === theirs.modules[i]);
  }
  return {
    text,
    level,
    oursSize: ours.size,
    theirsSize: theirs.size,
    differing,
    oursMask: formatInfo(ours.modules, ours.size).mask,
    theirsMask,
    sameDataOtherMask,
  };
}

const chosenTexts = new Map<string, { text: string; tried: MatrixComparison[] }>();

async function chooseText(page: Page, template: TextTemplate, level: ErrorCorrectionLevel): Promise<{ text: string; tried: MatrixComparison[] }> {
  const key = `${template.name}/${level}`;
  const known = chosenTexts.get(key);
  if (known) return known;
  const tried: MatrixComparison[] = [];
  const numbers = [template.prefer, ...Array.from({ length: SEARCH_LIMIT }, (_, i) => i).filter((i) => i !== template.prefer)];
  for (const n of numbers) {
    const text = template.template.replace('{}', String(n));
    const comparison = compareMatrices(text, level, await qcsMatrix(page, text, level));
    tried.push(comparison);
    if (comparison.differing === 0) {
      const chosen = { text, tried };
      chosenTexts.set(key, chosen);
      return chosen;
    }
  }
  throw new Error(`no text of template ${template.name} gives the same matrix in both encoders at level ${level}`);
}

// ---------------------------------------------------------------------------------------------
// Module grid of a render, and sampling.

interface Grid {
  x: number;
  y: number;
  /** module side, pixels (x and y measured apart) */
  mx: number;
  my: number;
}

/** The layout rule of each library (qr-code-styling: QRSVG.drawDots; ours: layoutCode). */
function ruleGrid(library: 'ours' | 'qcs', style: QrStyle, count: number): Grid {
  const margin = effectiveMargin(style, count);
  const roundSize = style.dotsOptions?.roundSize ?? true;
  const shape = style.shape ?? 'square';
  if (library === 'ours') {
    const layout = layoutCode(SIZE, count, margin, shape, roundSize);
    return { x: layout.x, y: layout.y, mx: layout.moduleSize, my: layout.moduleSize };
  }
  const round = (v: number) => (roundSize ? Math.floor(v) : v);
  const minSize = SIZE - margin * 2;
  const realSize = shape === 'circle' ? minSize / Math.SQRT2 : minSize;
  const dotSize = round(realSize / count);
  const begin = round((SIZE - count * dotSize) / 2);
  return { x: begin, y: begin, mx: dotSize, my: dotSize };
}

function pixelLuma(image: RasterImage, px: number, py: number): number {
  const x = Math.min(image.width - 1, Math.max(0, px));
  const y = Math.min(image.height - 1, Math.max(0, py));
  const i = (y * image.width + x) * 4;
  return luma([image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]]);
}

/**
 * Luminance at a point, interpolated between the four nearest pixel centres: a module centre on
 * a pixel corner (even module sizes) is read symmetrically, not from the pixel below-right of it.
 */
function lumaAt(image: RasterImage, x: number, y: number): number {
  const fx = x - 0.5;
  const fy = y - 0.5;
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const tx = fx - x0;
  const ty = fy - y0;
  return (
    pixelLuma(image, x0, y0) * (1 - tx) * (1 - ty) +
    pixelLuma(image, x0 + 1, y0) * tx * (1 - ty) +
    pixelLuma(image, x0, y0 + 1) * (1 - tx) * ty +
    pixelLuma(image, x0 + 1, y0 + 1) * tx * ty
  );
}

/**
 * Outer edge of a finder pattern seen from its centre along one direction: the first light pixel
 * beyond 2.6 modules (past the centre dot, the gap and into the ring) ends the ring.
 */
function finderEdge(image: RasterImage, threshold: number, cx: number, cy: number, dx: number, dy: number, module: number): number | null {
  for (let d = Math.ceil(2.6 * module); d <= 5 * module; d++) {
    if (pixelLuma(image, Math.floor(cx) + dx * d, Math.floor(cy) + dy * d) >= threshold) return d;
  }
  return null;
}

/** The grid measured from the finder patterns' outer edges; null when they cannot be found. */
function measuredGrid(image: RasterImage, threshold: number, count: number, rule: Grid): Grid | null {
  const m = rule.mx;
  const tlx = rule.x + 3.5 * m;
  const tly = rule.y + 3.5 * m;
  const trx = rule.x + (count - 3.5) * m;
  const bly = rule.y + (count - 3.5) * m;
  const left = finderEdge(image, threshold, tlx, tly, -1, 0, m);
  const top = finderEdge(image, threshold, tlx, tly, 0, -1, m);
  const right = finderEdge(image, threshold, trx, tly, 1, 0, m);
  const bottom = finderEdge(image, threshold, tlx, bly, 0, 1, m);
  if (left === null || top === null || right === null || bottom === null) return null;
  // Pixel centres: the edge pixel at distance d is light, so the code ends between d-1 and d.
  const x0 = Math.floor(tlx) - left + 1;
  const y0 = Math.floor(tly) - top + 1;
  const x1 = Math.floor(trx) + right;
  const y1 = Math.floor(bly) + bottom;
  return { x: x0, y: y0, mx: (x1 - x0) / count, my: (y1 - y0) / count };
}

/** Rectangles of <image> elements in an SVG (x, y, width, height attributes, px or plain). */
function imageRects(svg: string): Array<{ x: number; y: number; width: number; height: number }> {
  const rects = [];
  for (const match of svg.matchAll(/<image\b[^>]*>/g)) {
    const attr = (name: string) => {
      const m = new RegExp(`\\s${name}="([-0-9.e]+)(px)?"`).exec(match[0]);
      return m ? Number(m[1]) : 0;
    };
    rects.push({ x: attr('x'), y: attr('y'), width: attr('width'), height: attr('height') });
  }
  return rects;
}

interface Agreement {
  compared: number;
  agreeing: number;
  oursWrong: number;
  theirsWrong: number;
  underLogo: number;
  underLogoAgreeing: number;
  decorative: number;
  decorativeAgreeing: number;
  /** modules classified differently: [row, col, ours dark, theirs dark] */
  differences: Array<[number, number, boolean, boolean]>;
}

function agreement(
  ours: RasterImage,
  theirs: RasterImage,
  oursGrid: Grid,
  theirsGrid: Grid,
  modules: Uint8Array,
  count: number,
  threshold: number,
  logoRects: ReturnType<typeof imageRects>,
  circle: boolean,
): Agreement {
  const centre = (grid: Grid, row: number, col: number) => [grid.x + (col + 0.5) * grid.mx, grid.y + (row + 0.5) * grid.my] as const;
  const dark = (image: RasterImage, grid: Grid, row: number, col: number) => {
    const [x, y] = centre(grid, row, col);
    return lumaAt(image, x, y) < threshold;
  };
  const covered = (row: number, col: number) =>
    [oursGrid, theirsGrid].some((grid) => {
      const [x, y] = centre(grid, row, col);
      return logoRects.some((r) => x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height);
    });
  const result: Agreement = {
    compared: 0,
    agreeing: 0,
    oursWrong: 0,
    theirsWrong: 0,
    underLogo: 0,
    underLogoAgreeing: 0,
    decorative: 0,
    decorativeAgreeing: 0,
    differences: [],
  };
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      const a = dark(ours, oursGrid, row, col);
      const b = dark(theirs, theirsGrid, row, col);
      if (covered(row, col)) {
        result.underLogo++;
        if (a === b) result.underLogoAgreeing++;
        continue;
      }
      result.compared++;
      const truth = modules[row * count + col] === 1;
      if (a !== truth) result.oursWrong++;
      if (b !== truth) result.theirsWrong++;
      if (a === b) result.agreeing++;
      else result.differences.push([row, col, a, b]);
    }
  }
  if (circle) {
    // The decorative modules: the grid extended to the canvas edge, outside the code.
    const extra = Math.ceil(Math.max(oursGrid.x / oursGrid.mx, theirsGrid.x / theirsGrid.mx));
    for (let row = -extra; row < count + extra; row++) {
      for (let col = -extra; col < count + extra; col++) {
        if (row >= 0 && row < count && col >= 0 && col < count) continue;
        const [ox, oy] = centre(oursGrid, row, col);
        const [tx, ty] = centre(theirsGrid, row, col);
        if ([ox, oy, tx, ty].some((v) => v < 0 || v >= SIZE)) continue;
        result.decorative++;
        if (dark(ours, oursGrid, row, col) === dark(theirs, theirsGrid, row, col)) result.decorativeAgreeing++;
      }
    }
  }
  return result;
}

/** Share of pixels whose colour differs by more than an anti-aliasing shade. */
function pixelDifference(a: RasterImage, b: RasterImage): number {
  let differing = 0;
  for (let i = 0; i < a.pixels.length; i += 4) {
    const distance = Math.abs(a.pixels[i] - b.pixels[i]) + Math.abs(a.pixels[i + 1] - b.pixels[i + 1]) + Math.abs(a.pixels[i + 2] - b.pixels[i + 2]);
    if (distance > 48) differing++;
  }
  return differing / (a.width * a.height);
}

// ---------------------------------------------------------------------------------------------
// Decoding.

let zxingReady = false;
function loadZxing(): void {
  const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  void prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
    fireImmediately: true,
  });
  zxingReady = true;
}

async function zxingDecode(image: RasterImage): Promise<string | null> {
  if (!zxingReady) return null;
  const results = await readBarcodes({ data: image.pixels, width: image.width, height: image.height } as never, {
    formats: ['QRCode'],
    maxNumberOfSymbols: 1,
  });
  const valid = results.find((r) => r.isValid);
  return valid ? valid.text : null;
}

/** resvg does not read quoted url('#id') references (qr-code-styling writes them), browsers do. */
function forResvg(svg: string): string {
  return svg.replace(/url\('(#[^']+)'\)/g, 'url($1)');
}

/** Raster widths tried after the 300 px one, as a camera sees the code from further away. */
const DECODE_WIDTHS = [200, 150, 120, 100];

interface DecodeResult {
  /** jsQR on resvg's raster at 300 px (decodeSvg) */
  jsqr: boolean;
  /** zxing-wasm on the Chromium screenshot */
  zxing: boolean;
  /** jsQR on the Chromium screenshot */
  jsqrChromium: boolean;
  /** smallest raster width (of 300 and DECODE_WIDTHS, resvg) at which jsQR or zxing reads it; null: none */
  anyWidth: number | null;
}

async function decodeResults(svg: string, chromiumImage: RasterImage, text: string): Promise<DecodeResult> {
  const jsqr = decodeSvg(svg) === text;
  const zxing = (await zxingDecode(chromiumImage)) === text;
  const jsqrChromium = decodeRaster(chromiumImage) === text;
  let anyWidth: number | null = jsqr || zxing ? SIZE : null;
  for (const width of DECODE_WIDTHS) {
    if (anyWidth !== null) break;
    const image = rasteriseSvg(svg, width);
    if (decodeRaster(image) === text || (await zxingDecode(image)) === text) anyWidth = width;
  }
  return { jsqr, zxing, jsqrChromium, anyWidth };
}

const decodeCell = (d: DecodeResult) =>
  `${d.jsqr ? 'J' : '-'}${d.zxing ? 'Z' : '-'}${d.anyWidth === null ? ' none' : d.anyWidth < SIZE ? ` @${d.anyWidth}` : ''}`;

// ---------------------------------------------------------------------------------------------
// Report.

interface Row {
  entry: GalleryStyle;
  /** finder types our renderer chose for corner types the style left unset (qr-code-styling is given them) */
  scannableDefaults: AppliedDefault[];
  text: string;
  level: ErrorCorrectionLevel;
  count: number;
  version: number;
  qcsOptions: Record<string, unknown>;
  oursBytes: number;
  theirsBytes: number;
  threshold: ReturnType<typeof darkThreshold>;
  oursRule: Grid;
  theirsRule: Grid;
  oursMeasured: Grid | null;
  theirsMeasured: Grid | null;
  agreement: Agreement;
  pixelDiff: number;
  decode: { ours: DecodeResult; theirs: DecodeResult };
  masks: { ours: number; theirs: number };
}

const pct = (value: number, digits = 2) => `${(value * 100).toFixed(digits)}%`;
const gridText = (g: Grid | null) =>
  g ? `${+g.x.toFixed(2)},${+g.y.toFixed(2)} m=${+g.mx.toFixed(3)}${Math.abs(g.mx - g.my) > 0.01 ? `/${+g.my.toFixed(3)}` : ''}` : 'n/a';
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function styleJson(style: QrStyle): string {
  return JSON.stringify(
    style,
    (key, value) => (key === 'image' && typeof value === 'string' ? `${value.slice(0, 30)}… (${value.length} chars)` : value),
    1,
  ).replace(/\n\s*/g, ' ');
}

function writeIndex(rows: Row[], matrixReport: MatrixComparison[], failures: FailureRow[]): void {
  const failed = failures
    .map(
      (f) => `<tr class="bad"><td class="meta"><h3>${escapeHtml(f.entry.name)}</h3><p>qr-code-styling failed: ${escapeHtml(f.reason)}</p>
  <p>ours: ${f.oursBytes} bytes, decodes ${decodeCell(f.decode)}</p><pre>${escapeHtml(styleJson(f.entry.style))}</pre></td>
  <td><img src="${safeName(f.entry.name)}-ours.png" width="300" height="300"><br>ours</td><td>—</td><td>—</td></tr>`,
    )
    .join('\n');
  const body = rows
    .map((row) => {
      const a = row.agreement;
      const share = a.agreeing / a.compared;
      const cls = share >= TARGET ? 'ok' : 'bad';
      const file = safeName(row.entry.name);
      const defaultsList = row.scannableDefaults.map((d) => `${d.field.replace('style.', '')} = ${d.value}`).join(', ');
      const defaults = row.scannableDefaults.length
        ? `<p><b>scannable defaults</b> (qr-code-styling draws loose circles here; it was given these): ${escapeHtml(defaultsList)}</p>`
        : '';
      const decodes = `ours ${decodeCell(row.decode.ours)} · theirs ${decodeCell(row.decode.theirs)}`;
      return `<tr class="${cls}">
  <td class="meta"><h3>${escapeHtml(row.entry.name)}</h3>
  <p class="fig">agreement <b>${pct(share)}</b> (${a.agreeing}/${a.compared})</p>
  ${defaults}
  <p>bytes: ours ${row.oursBytes} · theirs ${row.theirsBytes} · ratio ${(row.oursBytes / row.theirsBytes).toFixed(3)}</p>
  <p>v${row.version} (${row.count}×${row.count}), level ${row.level}; pixels differing ${pct(row.pixelDiff)}</p>
  ${a.underLogo ? `<p>under logo: ${a.underLogo} modules left out (${a.underLogoAgreeing} alike)</p>` : ''}
  ${a.decorative ? `<p>decorative: ${a.decorativeAgreeing}/${a.decorative} alike</p>` : ''}
  <p>grid ours ${gridText(row.oursMeasured)} · theirs ${gridText(row.theirsMeasured)}</p>
  <p>decodes (J jsQR/resvg, Z zxing/Chromium at ${SIZE}px; @w: only at a smaller raster): ${decodes}</p>
  <p class="text">${escapeHtml(row.text)}</p>
  <pre>${escapeHtml(styleJson(row.entry.style))}</pre></td>
  <td><img src="${file}-ours.png" width="300" height="300"><br>ours</td>
  <td><img src="${file}-qcs.png" width="300" height="300"><br>qr-code-styling</td>
  <td><img src="${file}-diff.png" width="300" height="300"><br>difference (white: same)</td>
</tr>`;
    })
    .join('\n');
  const matrices = matrixReport
    .map(
      (m) =>
        `<tr><td>${escapeHtml(m.text.slice(0, 60))}</td><td>${m.level}</td><td>${m.oursSize}/${m.theirsSize}</td>` +
        `<td>${m.differing ?? 'size differs'}</td><td>${m.oursMask}/${m.theirsMask ?? '-'}</td>` +
        `<td>${m.sameDataOtherMask === null ? '' : m.sameDataOtherMask ? 'mask only' : 'data differs'}</td></tr>`,
    )
    .join('\n');
  writeFileSync(
    join(OUT, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>QR visual parity</title><style>
body{font:13px/1.35 system-ui,sans-serif;margin:12px;background:#fafafa}
table.g{border-collapse:collapse} table.g td{border:1px solid #ccc;vertical-align:top;padding:6px;background:#fff;text-align:center}
td.meta{width:300px;text-align:left!important} td.meta h3{margin:0 0 4px} td.meta p{margin:2px 0}
tr.bad td.meta{background:#fde2e2} .fig b{font-size:15px} pre{white-space:pre-wrap;word-break:break-all;font-size:11px;margin:4px 0 0}
p.text{font-family:monospace;font-size:11px;word-break:break-all;color:#555}
table.m td{border:1px solid #ccc;padding:2px 6px}
</style></head><body>
<h1>renderQrSvg vs qr-code-styling 1.9 (Chromium), ${SIZE}px</h1>
<table class="g">
${body}
${failed}
</table>
<h2>Matrix comparison (modules differing, masks ours/theirs)</h2>
<table class="m"><tr><th>text</th><th>level</th><th>size ours/theirs</th><th>differing modules</th><th>mask ours/theirs</th><th>cause</th></tr>
${matrices}
</table>
</body></html>`,
  );
}

function safeName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_.-]/g, '_');
}

/** Contact sheets: screenshots of the gallery's rows, a few styles per image. */
async function contactSheets(page: Page, rows: Row[]): Promise<string[]> {
  const files: string[] = [];
  const perSheet = 6;
  const html = (chunk: Row[]) =>
    `<!doctype html><html><body style="margin:0;background:#fff;font:12px system-ui,sans-serif">` +
    chunk
      .map((row) => {
        const file = safeName(row.entry.name);
        const share = row.agreement.agreeing / row.agreement.compared;
        const img = (suffix: string) => `data:image/png;base64,${readFileSync(join(OUT, `${file}-${suffix}.png`)).toString('base64')}`;
        const picture = (suffix: string) => `<img src="${img(suffix)}" width="300" height="300" style="border:1px solid #eee">`;
        return `<div style="display:inline-block;margin:4px;padding:4px;border:1px solid ${share >= TARGET ? '#ccc' : '#d00'}">
<div style="height:16px"><b>${escapeHtml(row.entry.name)}</b> ${pct(share)} · ${row.oursBytes}/${row.theirsBytes} B</div>
${picture('ours')}${picture('qcs')}
</div>`;
      })
      .join('') +
    `</body></html>`;
  for (let i = 0; i < rows.length; i += perSheet) {
    await page.setViewportSize({ width: 1260, height: 900 });
    await page.setContent(html(rows.slice(i, i + perSheet)));
    await page.evaluate(`Promise.all([...document.images].map((img) => img.decode()))`);
    const file = join(OUT, `contact-sheet-${i / perSheet + 1}.png`);
    await page.screenshot({ path: file, fullPage: true });
    files.push(file);
  }
  // The whole gallery page as one image too.
  await page.setViewportSize({ width: 1300, height: 900 });
  await page.goto(`file://${join(OUT, 'index.html')}`);
  await page.evaluate(`Promise.all([...document.images].map((img) => img.decode()))`);
  const whole = join(OUT, 'index.png');
  await page.screenshot({ path: whole, fullPage: true });
  files.push(whole);
  return files;
}

// ---------------------------------------------------------------------------------------------

/** qr-code-styling could not draw the style at all. */
class QcsFailure extends Error {
  constructor(
    readonly entry: GalleryStyle,
    readonly text: string,
    readonly level: ErrorCorrectionLevel,
    readonly ours: string,
    readonly reason: string,
  ) {
    super(`qr-code-styling failed on ${entry.name}: ${reason}`);
  }
}

interface FailureRow {
  entry: GalleryStyle;
  reason: string;
  oursBytes: number;
  decode: DecodeResult;
}

async function recordFailure(shotPage: Page, failure: QcsFailure): Promise<FailureRow> {
  const file = safeName(failure.entry.name);
  writeFileSync(join(OUT, `${file}-ours.svg`), failure.ours);
  const png = await screenshotSvg(shotPage, failure.ours);
  writeFileSync(join(OUT, `${file}-ours.png`), png);
  return {
    entry: failure.entry,
    reason: failure.reason,
    oursBytes: Buffer.byteLength(failure.ours),
    decode: await decodeResults(failure.ours, decodePng(png), failure.text),
  };
}

async function compareStyle(
  page: Page,
  shotPage: Page,
  entry: GalleryStyle,
  text: string,
  level: ErrorCorrectionLevel,
  checkMatrix: boolean,
): Promise<Row> {
  const matrix = buildQrMatrix(text, level, minimumDrawnVersion(entry.style));
  const count = matrix.size;

  const ours = renderQrSvg({ text, style: entry.style, size: SIZE });
  // Where a scannable default replaced qr-code-styling's loose finder, it draws the same figures
  // when given them: the comparison is of the drawing, the defaults are reported beside it.
  const finders = resolveFinderTypes(entry.style);
  const options = qcsOptions(text, withFinderTypes(entry.style, finders), level, count, matrix.version);
  let theirs: Awaited<ReturnType<typeof qcsRender>>;
  try {
    theirs = await qcsRender(page, options);
  } catch (error) {
    const message = String((error as Error).message ?? error)
      .split('\n')
      .slice(0, 3)
      .join(' | ');
    throw new QcsFailure(entry, text, level, ours, message);
  }
  if (checkMatrix && (theirs.size !== count || theirs.modules.some((v, i) => v !== matrix.modules[i]))) {
    throw new Error(`${entry.name}: qr-code-styling drew a different matrix than the one checked`);
  }

  const file = safeName(entry.name);
  writeFileSync(join(OUT, `${file}-ours.svg`), ours);
  writeFileSync(join(OUT, `${file}-qcs.svg`), theirs.svg);
  const oursPng = await screenshotSvg(shotPage, ours);
  const theirsPng = await screenshotSvg(shotPage, theirs.svg);
  writeFileSync(join(OUT, `${file}-ours.png`), oursPng);
  writeFileSync(join(OUT, `${file}-qcs.png`), theirsPng);
  writeFileSync(join(OUT, `${file}-diff.png`), await differenceImage(shotPage, oursPng, theirsPng));
  const oursImage = decodePng(oursPng);
  const theirsImage = decodePng(theirsPng);

  const threshold = darkThreshold(entry.style);
  const oursRule = ruleGrid('ours', entry.style, count);
  const theirsRule = ruleGrid('qcs', entry.style, count);
  const oursMeasured = measuredGrid(oursImage, threshold.threshold, count, oursRule);
  const theirsMeasured = measuredGrid(theirsImage, threshold.threshold, count, theirsRule);
  const result = agreement(
    oursImage,
    theirsImage,
    oursMeasured ?? oursRule,
    theirsMeasured ?? theirsRule,
    matrix.modules,
    count,
    threshold.threshold,
    [...imageRects(ours), ...imageRects(theirs.svg)],
    entry.style.shape === 'circle',
  );

  return {
    entry,
    text,
    level,
    count,
    version: matrix.version,
    qcsOptions: options,
    oursBytes: Buffer.byteLength(ours),
    theirsBytes: Buffer.byteLength(theirs.svg),
    threshold,
    oursRule,
    theirsRule,
    oursMeasured,
    theirsMeasured,
    agreement: result,
    scannableDefaults: finders.applied,
    pixelDiff: pixelDifference(oursImage, theirsImage),
    decode: {
      ours: await decodeResults(ours, oursImage, text),
      theirs: await decodeResults(forResvg(theirs.svg), theirsImage, text),
    },
    masks: { ours: formatInfo(matrix.modules, count).mask, theirs: formatInfo(theirs.modules, theirs.size).mask },
  };
}

async function main(): Promise<void> {
  const onlyIndex = process.argv.indexOf('--only');
  const only = onlyIndex >= 0 ? process.argv[onlyIndex + 1] : undefined;
  const gallery = only ? GALLERY.filter((entry) => entry.name.includes(only)) : GALLERY;
  mkdirSync(OUT, { recursive: true });

  let zxingNote = 'zxing-wasm/reader loaded in Node with the .wasm read from node_modules';
  try {
    loadZxing();
  } catch (error) {
    zxingNote = `zxing-wasm could not be loaded: ${(error as Error).message}`;
  }

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const rows: Row[] = [];
  const matrixReport: MatrixComparison[] = [];
  const failures: FailureRow[] = [];
  try {
    const page = await openPage(browser);
    const shotPage = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });

    for (const text of REPORTED_TEXTS) {
      for (const level of ['L', 'M', 'Q', 'H'] as const) matrixReport.push(compareMatrices(text, level, await qcsMatrix(page, text, level)));
    }

    for (const entry of gallery) {
      const level = resolveErrorCorrectionLevel(entry.style);
      const { text, tried } = await chooseText(page, entry.text, level);
      const chosen = tried[tried.length - 1];
      if (!matrixReport.some((m) => m.text === chosen.text && m.level === chosen.level)) matrixReport.push(chosen);
      try {
        rows.push(await compareStyle(page, shotPage, entry, text, level, true));
      } catch (error) {
        if (!(error instanceof QcsFailure)) throw error;
        failures.push(await recordFailure(shotPage, error));
      }
      process.stderr.write('.');
    }
    // Control: the same drawing of two different matrices (same data, masks 2 and 6) must score
    // far below the target, or the agreement figure would be blind.
    const control = only
      ? null
      : await compareStyle(page, shotPage, { name: 'control-mask-mismatch', text: MAIN, style: {} }, 'https://example.com/qr-gallery', 'M', false);
    process.stderr.write('\n');

    writeIndex(rows, matrixReport, failures);
    const sheets = await contactSheets(shotPage, rows);

    // ---- printed report
    const qcsVersion = (JSON.parse(readFileSync(require.resolve('qr-code-styling/package.json'), 'utf8')) as { version: string }).version;
    console.log(`\nrenderQrSvg vs qr-code-styling ${qcsVersion} in Chromium ${browser.version()}, ${SIZE}px`);
    console.log(`${zxingNote}\n`);
    console.log('Matrix comparison (our buildQrMatrix vs qr-code-styling _qr.isDark):');
    for (const m of matrixReport) {
      console.log(
        `  ${m.level} ${String(m.oursSize).padStart(3)}/${String(m.theirsSize).padEnd(3)} ` +
          `${m.differing === 0 ? 'same      ' : m.differing === null ? 'SIZE DIFF ' : `${String(m.differing).padStart(4)} diff `} ` +
          `mask ${m.oursMask}/${m.theirsMask ?? '-'}` +
          `${m.sameDataOtherMask === null ? '' : m.sameDataOtherMask ? ' (same data, mask only)' : ' (DATA DIFFERS)'}  ` +
          `${m.text.length > 70 ? `${m.text.slice(0, 67)}...` : m.text}`,
      );
    }
    console.log('\nTexts drawn:');
    for (const [key, value] of chosenTexts) {
      const rejected = value.tried.slice(0, -1);
      const why = rejected.length
        ? `; ${rejected.length} rejected before it (${rejected.filter((m) => m.sameDataOtherMask).length} differing only by mask)`
        : '';
      console.log(`  ${key.padEnd(9)} ${value.text}${why}`);
    }

    const header = [
      'style',
      'agree',
      'our B',
      'their B',
      'ratio',
      'px diff',
      'ver',
      'ecl',
      'logo',
      'deco',
      'ours dec',
      'qcs dec',
      'grid ours (measured)',
      'grid qcs (measured)',
    ];
    const table = [...rows, ...(control ? [control] : [])].map((row) => {
      const a = row.agreement;
      return [
        row.entry.name,
        pct(a.agreeing / a.compared),
        String(row.oursBytes),
        String(row.theirsBytes),
        (row.oursBytes / row.theirsBytes).toFixed(3),
        pct(row.pixelDiff),
        String(row.version),
        row.level,
        a.underLogo ? `${a.underLogo} out/${pct(a.underLogoAgreeing / a.underLogo, 0)}` : '-',
        a.decorative ? pct(a.decorativeAgreeing / a.decorative, 1) : '-',
        decodeCell(row.decode.ours),
        decodeCell(row.decode.theirs),
        gridText(row.oursMeasured),
        gridText(row.theirsMeasured),
      ];
    });
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i >= 12 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    console.log(`\n${line(header)}`);
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    table.forEach((r, i) => {
      if (i === rows.length) console.log(widths.map((w) => '.'.repeat(w)).join('  '));
      console.log(line(r));
    });
    console.log(
      `(J: jsQR on resvg's ${SIZE}px raster = decodeSvg; Z: zxing-wasm on the Chromium screenshot; ` +
        `@w: read only at a smaller raster width; none: at no width of ${[SIZE, ...DECODE_WIDTHS].join('/')})`,
    );
    if (control) {
      console.log(
        `control-mask-mismatch: our render of "${control.text}" (mask ${control.masks.ours}) vs qr-code-styling's (mask ${control.masks.theirs}), ` +
          `same data: agreement ${pct(control.agreement.agreeing / control.agreement.compared)} — the figure does see a different symbol`,
      );
    }

    for (const f of failures) {
      console.log(`${f.entry.name}: qr-code-styling FAILED to draw it (${f.reason}); ours ${f.oursBytes} B, decodes ${decodeCell(f.decode)}`);
    }
    const below = rows.filter((row) => row.agreement.agreeing / row.agreement.compared < TARGET);
    // A failure of ours only counts when qr-code-styling's drawing of the same style is read.
    const undecoded = rows.filter((row) => row.decode.ours.anyWidth === null && row.decode.theirs.anyWidth !== null);
    const unreadableStyles = rows.filter((row) => row.decode.ours.anyWidth === null || !(row.decode.ours.jsqr && row.decode.ours.zxing));
    const unreadableText = (r: Row) => `${r.entry.name} (ours ${decodeCell(r.decode.ours)}, qcs ${decodeCell(r.decode.theirs)})`;
    console.log(`\n${rows.length} styles; under ${pct(TARGET, 0)}: ${below.length ? below.map((r) => r.entry.name).join(', ') : 'none'}`);
    for (const row of rows) {
      const a = row.agreement;
      const ruleOff = (rule: Grid, measured: Grid | null) =>
        measured && (Math.abs(rule.x - measured.x) > 1 || Math.abs(rule.y - measured.y) > 1 || Math.abs(rule.mx - measured.mx) > 0.1);
      const notes: string[] = [];
      if (row.scannableDefaults.length)
        notes.push(`scannable defaults: ${row.scannableDefaults.map((d) => `${d.field.replace('style.', '')}=${d.value}`).join(', ')}`);
      if (!row.oursMeasured || !row.theirsMeasured)
        notes.push(`finder measurement failed (ours ${gridText(row.oursMeasured)}, theirs ${gridText(row.theirsMeasured)}): layout rule used`);
      if (ruleOff(row.oursRule, row.oursMeasured))
        notes.push(`our grid ${gridText(row.oursMeasured)} is not our layout rule's ${gridText(row.oursRule)}`);
      if (ruleOff(row.theirsRule, row.theirsMeasured))
        notes.push(`qcs grid ${gridText(row.theirsMeasured)} is not its layout rule's ${gridText(row.theirsRule)}`);
      if (a.differences.length) {
        notes.push(
          `${a.differences.length} modules differ (ours wrong vs matrix: ${a.oursWrong}, theirs wrong: ${a.theirsWrong}); first: ${a.differences
            .slice(0, 8)
            .map(([r, c, o, t]) => `(${r},${c}) ours ${o ? 'dark' : 'light'}/theirs ${t ? 'dark' : 'light'}`)
            .join(' ')}`,
        );
      }
      const { ours, theirs } = row.decode;
      if (!ours.jsqr || !ours.zxing || !theirs.jsqr || !theirs.zxing) {
        notes.push(
          `decoding at ${SIZE}px: ours jsQR ${ours.jsqr ? 'yes' : 'no'}, zxing ${ours.zxing ? 'yes' : 'no'}; ` +
            `theirs jsQR ${theirs.jsqr ? 'yes' : 'no'}, zxing ${theirs.zxing ? 'yes' : 'no'}` +
            `; jsQR on the Chromium raster: ours ${ours.jsqrChromium ? 'yes' : 'no'}, theirs ${theirs.jsqrChromium ? 'yes' : 'no'}` +
            `; smallest width read: ours ${ours.anyWidth ?? 'none'}, theirs ${theirs.anyWidth ?? 'none'}`,
        );
      }
      if (notes.length) console.log(`  ${row.entry.name}:\n    ${notes.join('\n    ')}`);
    }
    console.log(
      `\nStyles not read by both decoders at ${SIZE}px: ${unreadableStyles.length ? unreadableStyles.map(unreadableText).join(', ') : 'none'}`,
    );
    console.log(
      `Our renders unreadable where qr-code-styling's is read: ${undecoded.length ? undecoded.map((r) => r.entry.name).join(', ') : 'none'}`,
    );
    console.log(`Gallery: ${join(OUT, 'index.html')}; contact sheets: ${sheets.map((s) => s.replace(`${OUT}/`, '')).join(', ')}`);
    if (below.length || undecoded.length) process.exitCode = 1;
  } finally {
    await browser.close();
  }
}

// Only when run directly (the file may be imported by a test that wants the gallery).
if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(2);
  });
}

export { GALLERY };
