/**
 * The decode matrix (test/support/decode-matrix.ts): every style combination is either refused with
 * the field to change or read back by every decoder, at its own raster and (from 300 px) downscaled
 * by half and with a 1-px blur. `npm test` reads a fixed sample of a seventh
 * of the combinations (each dots type at each size, every ring, centre, shape and logo choice among
 * them); DECODE_FULL=1 reads all 4,608, as bench/decode-matrix.ts does with its read rates.
 */
import {
  type Combination,
  describeMatrix,
  MATRIX_SIZES,
  matrixCombinations,
  type MatrixRun,
  runMatrix,
  sampleIndices,
  VIEWED_CONDITIONS,
  VIEWED_FROM_SIZE,
} from '../../test/support/decode-matrix';
import { DECODER_NAMES } from '../../test/support/qr-decoders';
import { DOT_TYPES, type QrStyle } from './style/qr-style';

const FULL = process.env.DECODE_FULL === '1';
const SAMPLE_STRIDE = 7;
const COMBINATIONS: Combination[] = matrixCombinations();

describe(`decode matrix: ${FULL ? 'every' : 'a fixed sample of every'} style combination, every decoder`, () => {
  let run: MatrixRun;

  beforeAll(async () => {
    run = await runMatrix(COMBINATIONS, FULL ? sampleIndices(COMBINATIONS.length, 1) : sampleIndices(COMBINATIONS.length, SAMPLE_STRIDE));
    console.log(describeMatrix(COMBINATIONS, run));
  }, 600_000);

  it('covers every combination the issue names (6 × 8 × 8 × 2 × 2 at three sizes)', () => {
    expect(COMBINATIONS).toHaveLength(6 * 8 * 8 * 2 * 2 * 3);
  });

  it('samples every dots type at every size, and every ring and centre choice', () => {
    const sampled = [...run.read.keys(), ...run.refused.keys()].map((index) => COMBINATIONS[index]);
    for (const size of MATRIX_SIZES)
      for (const dotsType of DOT_TYPES) expect(sampled.some((c) => c.size === size && c.dotsType === dotsType)).toBe(true);
    expect(new Set(sampled.map((c) => JSON.stringify([c.style.cornersSquareOptions, c.style.cornersDotOptions]))).size).toBe(8 * 8);
  });

  it('refuses exactly the explicit loose-dots finder parts, naming the field to change', () => {
    const expected = (style: QrStyle): string[] => {
      if (style.cornersDotOptions?.type === 'dots') return ['style.cornersDotOptions.type'];
      if (style.cornersDotOptions?.type === 'dot' && style.cornersSquareOptions?.type === 'dots') return ['style.cornersSquareOptions.type'];
      return [];
    };
    const checked = [...run.read.keys(), ...run.refused.keys()];
    const wrong = checked.filter((index) => JSON.stringify(run.refused.get(index) ?? []) !== JSON.stringify(expected(COMBINATIONS[index].style)));
    expect(wrong.map((index) => COMBINATIONS[index].name)).toEqual([]);
    if (FULL) expect(run.refused.size).toBe(3 * 6 * (8 + 1) * 2 * 2);
  });

  describe.each(MATRIX_SIZES)('at %i px', (size) => {
    it.each(DOT_TYPES)(`every accepted %s combination decodes with ${DECODER_NAMES.join(', ')}`, (dotsType) => {
      const misses: string[] = [];
      for (const [index, widths] of run.read) {
        const combination = COMBINATIONS[index];
        if (combination.size !== size || combination.dotsType !== dotsType) continue;
        const missedBy = DECODER_NAMES.filter((name) => widths[name] === null);
        if (missedBy.length > 0) misses.push(`${size} ${combination.name}: missed by ${missedBy.join(', ')}`);
      }
      expect(misses).toEqual([]);
    });
  });

  describe.each(
    VIEWED_CONDITIONS.flatMap((condition) => MATRIX_SIZES.filter((size) => size >= VIEWED_FROM_SIZE).map((size) => [condition, size] as const)),
  )('seen %s at %i px', (condition, size) => {
    it(`every accepted combination decodes with ${DECODER_NAMES.join(', ')}`, () => {
      const misses: string[] = [];
      for (const [index, widths] of run.viewed.get(condition) ?? []) {
        const combination = COMBINATIONS[index];
        if (combination.size !== size) continue;
        const missedBy = DECODER_NAMES.filter((name) => widths[name] === null);
        if (missedBy.length > 0) misses.push(`${size} ${condition} ${combination.name}: missed by ${missedBy.join(', ')}`);
      }
      expect(misses).toEqual([]);
      expect([...(run.viewed.get(condition) ?? [])].some(([index]) => COMBINATIONS[index].size === size)).toBe(true);
    });
  });
});
