/**
 * The server render must match a browser preview made with qr-code-styling (docs/styling-and-scannability.md): both
 * SVGs are rasterised and compared pixel by pixel. qr-code-styling encodes with qrcode-generator,
 * whose mask choice can differ from ours, so its drawing is fed our module matrix; it runs in a
 * child Node process (__fixtures__/qr-code-styling-svg.cjs says why).
 */
import { Resvg } from '@resvg/resvg-js';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { resolveErrorCorrectionLevel, type Gradient, type QrStyle } from './style/qr-style';
import { checkeredLogo } from './__fixtures__/png-data-uri';
import { resolveFinderTypes } from './style/finder-defaults';
import { imageDimensions } from './image-dimensions';
import { buildQrMatrix } from './qr-matrix';
import { renderQrSvg } from './render-qr-svg';

/** qr-code-styling takes gradient rotation in radians; our style (the API) in degrees. */
function inRadians(style: QrStyle): QrStyle {
  const copy = structuredClone(style);
  for (const options of [copy.dotsOptions, copy.cornersSquareOptions, copy.cornersDotOptions, copy.backgroundOptions]) {
    if (options?.gradient) options.gradient.rotation = ((options.gradient.rotation ?? 0) * Math.PI) / 180;
  }
  return copy;
}

interface Job {
  text: string;
  style: QrStyle;
  size: number;
}

/** All SVGs in one child process: starting jsdom is the slow part. */
function qrCodeStylingSvgs(jobs: readonly Job[]): string[] {
  const input = jobs.map(({ text, style, size }) => {
    const level = resolveErrorCorrectionLevel(style);
    const matrix = buildQrMatrix(text, level);
    return {
      text,
      style: inRadians(style),
      size,
      level,
      matrix: { size: matrix.size, modules: Buffer.from(matrix.modules).toString('base64') },
      imageSize: style.image ? imageDimensions(style.image) : null,
    };
  });
  const output = execFileSync(process.execPath, [join(__dirname, '__fixtures__', 'qr-code-styling-svg.cjs')], {
    cwd: join(__dirname, '..', '..'),
    input: JSON.stringify(input),
    maxBuffer: 64 * 1024 * 1024,
  });
  // resvg does not read quoted url() references, which browsers accept.
  return (JSON.parse(output.toString()) as string[]).map((svg) => svg.replace(/url\('(#[^']+)'\)/g, 'url($1)'));
}

/** Pixels whose colour differs by more than a faint anti-aliasing shade. */
function differingPixels(first: string, second: string): number {
  const raster = (svg: string) => new Resvg(svg, { background: '#ffffff', font: { loadSystemFonts: false } }).render().pixels;
  const [a, b] = [raster(first), raster(second)];
  let differing = 0;
  for (let index = 0; index < a.length; index += 4) {
    const distance = Math.abs(a[index] - b[index]) + Math.abs(a[index + 1] - b[index + 1]) + Math.abs(a[index + 2] - b[index + 2]);
    if (distance > 24) differing++;
  }
  return differing;
}

const TEXT = 'https://example.com/'.concat('x'.repeat(40));
const gradient = (type: Gradient['type'], rotation?: number): Gradient => ({
  type,
  rotation,
  colorStops: [
    { offset: 0, color: '#123456' },
    { offset: 1, color: '#cc2288' },
  ],
});

const CASES: Array<[name: string, style: QrStyle, size: number]> = [
  ['square dots', {}, 300],
  [
    'dots with their corner types set',
    { dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'dots' }, cornersDotOptions: { type: 'square' } },
    300,
  ],
  // Unset corners with dots get solid figures (style/finder-defaults.ts): qr-code-styling is given them explicitly.
  ['dots with scannable default corners', { dotsOptions: { type: 'dots' } }, 300],
  ['rounded dots', { dotsOptions: { type: 'rounded' } }, 300],
  ['classy dots', { dotsOptions: { type: 'classy' } }, 300],
  ['classy-rounded dots', { dotsOptions: { type: 'classy-rounded' } }, 300],
  ['extra-rounded dots (unset corners follow as modules)', { dotsOptions: { type: 'extra-rounded' } }, 300],
  [
    'corner figures and corner module shapes',
    { cornersSquareOptions: { type: 'extra-rounded', color: '#aa0000' }, cornersDotOptions: { type: 'classy' } },
    300,
  ],
  ['dot corner squares', { cornersSquareOptions: { type: 'dot' }, cornersDotOptions: { type: 'dot', color: '#0000aa' } }, 300],
  [
    'linear gradients at several angles',
    { dotsOptions: { type: 'rounded', gradient: gradient('linear', 120) }, backgroundOptions: { gradient: gradient('linear', 250) } },
    300,
  ],
  [
    'radial and per-corner gradients',
    {
      dotsOptions: { gradient: gradient('radial') },
      cornersSquareOptions: { gradient: gradient('linear', 45) },
      cornersDotOptions: { gradient: gradient('radial') },
    },
    300,
  ],
  ['rounded background', { backgroundOptions: { color: '#eeddcc', round: 0.5 } }, 300],
  ['circle shape', { shape: 'circle', dotsOptions: { type: 'rounded' } }, 333],
  ['logo with margin', { image: checkeredLogo(), imageOptions: { margin: 4, imageSize: 0.3 }, dotsOptions: { type: 'classy' } }, 300],
  ['wide logo over the modules', { image: checkeredLogo(40, 16), imageOptions: { hideBackgroundDots: false } }, 300],
  ['unrounded sizes', { dotsOptions: { roundSize: false, type: 'extra-rounded' }, margin: 7 }, 311],
];

/** The compactness target: rounded dots, a linear gradient and a logo. */
const COMPACTNESS_STYLE: QrStyle = { dotsOptions: { type: 'rounded', gradient: gradient('linear', 45) }, image: checkeredLogo() };

/** The style with the finder types our renderer resolves (scannable defaults) written out. */
function withResolvedFinders(style: QrStyle): QrStyle {
  const { cornersSquareType, cornersDotType } = resolveFinderTypes(style);
  return {
    ...style,
    ...(cornersSquareType ? { cornersSquareOptions: { ...style.cornersSquareOptions, type: cornersSquareType } } : {}),
    ...(cornersDotType ? { cornersDotOptions: { ...style.cornersDotOptions, type: cornersDotType } } : {}),
  };
}

describe('renderQrSvg compared with qr-code-styling', () => {
  // Same margin on both sides: qr-code-styling's default is no quiet zone at all.
  const jobs: Job[] = CASES.map(([, style, size]) => ({ text: TEXT, style: { margin: 10, ...style }, size }));
  const defaultsIndex = CASES.findIndex(([name]) => name === 'dots with scannable default corners');
  let theirs: string[] = [];
  let theirsLooseFinders = '';

  beforeAll(() => {
    const given = jobs.map((job) => ({ ...job, style: withResolvedFinders(job.style) }));
    theirs = qrCodeStylingSvgs([...given, { text: TEXT, style: COMPACTNESS_STYLE, size: 300 }, jobs[defaultsIndex]]);
    theirsLooseFinders = theirs.pop() ?? '';
  });

  it('draws solid finders where qr-code-styling draws loose dots (the default is applied)', () => {
    expect(differingPixels(renderQrSvg(jobs[defaultsIndex]), theirsLooseFinders)).toBeGreaterThan(jobs[defaultsIndex].size * 2);
  });

  it.each(CASES.map(([name], index) => [name, index] as const))('draws %s like qr-code-styling', (_name, index) => {
    const ours = renderQrSvg(jobs[index]);
    // Round figures are written differently (whole arcs vs qr-code-styling's almost-closed ones):
    // a few edge pixels may shade differently, nothing more.
    expect(differingPixels(ours, theirs[index])).toBeLessThan(jobs[index].size * 2);
  });

  it('tells a different drawing apart (the comparison is not blind)', () => {
    const roundedIndex = CASES.findIndex(([name]) => name === 'rounded dots');
    const squareIndex = CASES.findIndex(([name]) => name === 'square dots');
    expect(differingPixels(renderQrSvg(jobs[roundedIndex]), theirs[squareIndex])).toBeGreaterThan(jobs[squareIndex].size * 2);
  });

  it('is at most a fifth of qr-code-styling’s SVG for rounded dots, a gradient and a logo', () => {
    const ours = renderQrSvg({ text: TEXT, style: COMPACTNESS_STYLE, size: 300 });
    expect(ours.length * 5).toBeLessThanOrEqual(theirs[jobs.length].length);
  });
});
