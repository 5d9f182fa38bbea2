/**
 * The decode matrix (docs/styling-and-scannability.md#which-sizes-decode): every dots type × every
 * corner-square type (and unset) × every corner-dot type (and unset) × {square, circle} × {no logo,
 * logo hiding its modules} at 100, 300 and 1000 px. Each combination is either refused by
 * checkStyle with the field to change, or rendered and read back by every decoder of
 * test/support/qr-decoders.ts: at its own raster, and from 300 px also downscaled by half and with a
 * 1-px blur (VIEWED_CONDITIONS). Shared by the decode tier (a fixed sample, or all with
 * DECODE_FULL=1) and bench/decode-matrix.ts (all of it, with read rates per decoder).
 */
import { checkStyle } from '../../src/rendering/style/check-style';
import { CORNER_DOT_TYPES, CORNER_SQUARE_TYPES, DOT_TYPES, type DotType, type QrStyle, SHAPES } from '../../src/rendering/style/qr-style';
import { badgeLogo } from '../../src/rendering/__fixtures__/png-data-uri';
import { decodeInWorkers } from './decode-pool';
import { DECODER_NAMES, type ReadCondition, type ReadWidths } from './qr-decoders';

export const MATRIX_TEXT = 'https://example.com/products/42?ref=qr';
export const MATRIX_SIZES = [100, 300, 1000] as const;
const RING_TYPES = [undefined, ...new Set(CORNER_SQUARE_TYPES)];
const CENTRE_TYPES = [undefined, ...new Set(CORNER_DOT_TYPES)];

export interface Combination {
  name: string;
  size: number;
  dotsType: DotType;
  style: QrStyle;
}

export function matrixCombinations(): Combination[] {
  const logo = badgeLogo();
  return MATRIX_SIZES.flatMap((size) =>
    DOT_TYPES.flatMap((dotsType) =>
      RING_TYPES.flatMap((ring) =>
        CENTRE_TYPES.flatMap((centre) =>
          SHAPES.flatMap((shape) =>
            [false, true].map((withLogo): Combination => ({
              name: `${dotsType} dots, ring ${ring ?? 'unset'}, centre ${centre ?? 'unset'}, ${shape}${withLogo ? ', logo' : ''}`,
              size,
              dotsType,
              style: {
                dotsOptions: { type: dotsType },
                ...(ring ? { cornersSquareOptions: { type: ring } } : {}),
                ...(centre ? { cornersDotOptions: { type: centre } } : {}),
                shape,
                ...(withLogo ? { image: logo, imageOptions: { hideBackgroundDots: true } } : {}),
              },
            })),
          ),
        ),
      ),
    ),
  );
}

/**
 * Every `stride`-th combination, starting at `offset`. A stride prime to the matrix's dimensions
 * (2, 6, 8, 3) walks through every ring, centre, shape and logo choice within each dots type and size.
 */
export function sampleIndices(count: number, stride: number, offset = 0): number[] {
  return Array.from({ length: count }, (_, index) => index).filter((index) => index % stride === offset % stride);
}

/**
 * The read conditions besides the own raster, and the smallest image they apply to: a 100 px image
 * has 2 px per module, so halved it has one and a 1-px blur spans most of a module; no decoder
 * reads even the plain code there (docs/styling-and-scannability.md#every-image-decodes).
 */
export const VIEWED_CONDITIONS = ['half', 'blur'] as const satisfies readonly ReadCondition[];
export type ViewedCondition = (typeof VIEWED_CONDITIONS)[number];
export const VIEWED_FROM_SIZE = 300;

export interface MatrixRun {
  /** index → the fields checkStyle named */
  refused: Map<number, string[]>;
  /** index → the raster width at which each decoder read the text (null: never) */
  read: Map<number, ReadWidths>;
  /** condition → index → the same, for the accepted combinations of VIEWED_FROM_SIZE px and more */
  viewed: Map<ViewedCondition, Map<number, ReadWidths>>;
  seconds: number;
}

/** Checks every combination of `indices`, renders and reads the accepted ones on every core. */
export async function runMatrix(combinations: Combination[], indices: number[]): Promise<MatrixRun> {
  const started = Date.now();
  const refused = new Map<number, string[]>();
  const accepted: number[] = [];
  for (const index of indices) {
    const check = checkStyle(combinations[index].style);
    if (check.ok) accepted.push(index);
    else
      refused.set(
        index,
        check.errors.map((error) => error.field),
      );
  }
  const large = accepted.filter((index) => combinations[index].size >= VIEWED_FROM_SIZE);
  const jobs = [
    ...accepted.map((index) => ({ index, condition: 'own' as const })),
    ...VIEWED_CONDITIONS.flatMap((condition) => large.map((index) => ({ index, condition }))),
  ];
  // One pool for every condition, so both cores stay busy to the end.
  const widths = await decodeInWorkers(
    jobs.map(({ index, condition }) => ({ text: MATRIX_TEXT, style: combinations[index].style, size: combinations[index].size, condition })),
  );
  const read = new Map<number, ReadWidths>();
  const viewed = new Map(VIEWED_CONDITIONS.map((condition) => [condition, new Map<number, ReadWidths>()]));
  jobs.forEach(({ index, condition }, position) => (condition === 'own' ? read : viewed.get(condition))?.set(index, widths[position]));
  return { refused, read, viewed, seconds: (Date.now() - started) / 1000 };
}

/** Every reading of the run, labelled with its condition. */
export function allReadings(run: MatrixRun): Array<{ condition: ReadCondition; index: number; widths: ReadWidths }> {
  return [
    ...[...run.read].map(([index, widths]) => ({ condition: 'own' as const, index, widths })),
    ...[...run.viewed].flatMap(([condition, read]) => [...read].map(([index, widths]) => ({ condition, index, widths }))),
  ];
}

/** Read rates per decoder and size, and how many reads needed another raster width than the image's own. */
export function describeMatrix(combinations: Combination[], run: MatrixRun): string {
  const lines = [
    `decode matrix: ${run.read.size + run.refused.size} combinations, ${run.read.size} rendered and decoded, ` +
      `${run.refused.size} refused, ${run.seconds.toFixed(1)} s`,
  ];
  const readings = allReadings(run);
  for (const condition of ['own', ...VIEWED_CONDITIONS] as const) {
    for (const size of MATRIX_SIZES) {
      const atSize = readings.filter((reading) => reading.condition === condition && combinations[reading.index].size === size);
      if (atSize.length === 0) continue;
      const rates = DECODER_NAMES.map((name) => {
        const reads = atSize.filter(({ widths }) => widths[name] !== null).length;
        const rescued = atSize.filter(({ widths }) => widths[name] !== null && widths[name] !== size).length;
        return `${name} ${reads}/${atSize.length} (${rescued} at another width)`;
      });
      lines.push(`  ${size} px, ${condition}: ${rates.join(', ')}`);
    }
  }
  return lines.join('\n');
}
