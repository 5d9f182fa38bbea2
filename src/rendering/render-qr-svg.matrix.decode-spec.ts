/**
 * The decode matrix (docs/styling-and-scannability.md#every-image-decodes): every dots type × every
 * corner-square type (and unset) × every corner-dot type (and unset) × {square, circle} × {no logo,
 * logo hiding its modules} at 100, 300 and 1000 px. Each combination is either refused by
 * checkStyle with the field to change, or rendered and read back to exactly its text by all three
 * decoders: jsQR, zxing-wasm and zbar-wasm (test/support/qr-decoders.ts), each at the image's own
 * raster or, failing that, at a camera's view of it (cameraWidths). Rendering and decoding run on
 * every core (test/support/decode-pool.ts).
 */
import { decodeInWorkers } from '../../test/support/decode-pool';
import { DECODER_NAMES, type DecoderName, type ReadWidths } from '../../test/support/qr-decoders';
import { checkStyle } from './style/check-style';
import { CORNER_DOT_TYPES, CORNER_SQUARE_TYPES, DOT_TYPES, type DotType, type QrStyle, SHAPES } from './style/qr-style';
import { badgeLogo } from './__fixtures__/png-data-uri';

const TEXT = 'https://example.com/products/42?ref=qr';
const SIZES = [100, 300, 1000] as const;
const LOGO = badgeLogo();
const RING_TYPES = [undefined, ...new Set(CORNER_SQUARE_TYPES)];
const CENTRE_TYPES = [undefined, ...new Set(CORNER_DOT_TYPES)];

interface Combination {
  name: string;
  size: number;
  dotsType: DotType;
  style: QrStyle;
}

const COMBINATIONS: Combination[] = SIZES.flatMap((size) =>
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
              ...(withLogo ? { image: LOGO, imageOptions: { hideBackgroundDots: true } } : {}),
            },
          })),
        ),
      ),
    ),
  ),
);

describe('decode matrix: every style combination, three decoders', () => {
  const refused = new Map<number, string[]>();
  const read = new Map<number, ReadWidths>();
  const accepted: number[] = [];

  beforeAll(async () => {
    COMBINATIONS.forEach((combination, index) => {
      const check = checkStyle(combination.style);
      if (check.ok) accepted.push(index);
      else
        refused.set(
          index,
          check.errors.map((error) => error.field),
        );
    });
    const started = Date.now();
    const widths = await decodeInWorkers(accepted.map((index) => ({ text: TEXT, style: COMBINATIONS[index].style, size: COMBINATIONS[index].size })));
    accepted.forEach((index, position) => read.set(index, widths[position]));
    const rescued = Object.fromEntries(
      DECODER_NAMES.map((name) => [
        name,
        [...read].filter(([index, result]) => result[name] !== null && result[name] !== COMBINATIONS[index].size).length,
      ]),
    );
    console.log(
      `decode matrix: ${COMBINATIONS.length} combinations, ${accepted.length} rendered and decoded, ${refused.size} refused, ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s; read only at another raster width: ${JSON.stringify(rescued)}`,
    );
  }, 600_000);

  it('covers every combination the issue names (6 × 8 × 8 × 2 × 2 at three sizes)', () => {
    expect(COMBINATIONS).toHaveLength(6 * 8 * 8 * 2 * 2 * 3);
  });

  it('refuses exactly the explicit loose-dots finder parts, naming the field to change', () => {
    const expected = (style: QrStyle): string[] => {
      if (style.cornersDotOptions?.type === 'dots') return ['style.cornersDotOptions.type'];
      if (style.cornersDotOptions?.type === 'dot' && style.cornersSquareOptions?.type === 'dots') return ['style.cornersSquareOptions.type'];
      return [];
    };
    const wrong = COMBINATIONS.flatMap((combination, index) =>
      JSON.stringify(refused.get(index) ?? []) === JSON.stringify(expected(combination.style)) ? [] : [combination.name],
    );
    expect(wrong).toEqual([]);
    expect(refused.size).toBe(3 * 6 * (8 + 1) * 2 * 2);
  });

  describe.each(SIZES)('at %i px', (size) => {
    it.each(DOT_TYPES)('every accepted %s combination decodes with jsQR, zxing and zbar', (dotsType) => {
      const misses: string[] = [];
      for (const [index, widths] of read) {
        const combination = COMBINATIONS[index];
        if (combination.size !== size || combination.dotsType !== dotsType) continue;
        const missedBy = DECODER_NAMES.filter((name: DecoderName) => widths[name] === null);
        if (missedBy.length > 0) misses.push(`${size} ${combination.name}: missed by ${missedBy.join(', ')}`);
      }
      expect(misses).toEqual([]);
    });
  });
});
