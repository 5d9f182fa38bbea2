/**
 * Property (docs/styling-and-scannability.md#which-sizes-decode): any style the service accepts,
 * with any text at any size from 100 to 2000 px, decodes with at least two of jsQR, zxing and zbar,
 * zbar among them. 200 random cases in `npm test` (DECODE_PROPERTY_RUNS to change), the seed fixed so a
 * failure replays (DECODE_PROPERTY_SEED for another); bench/decode-property.ts runs 10,000.
 */
import { describeRun, runDecodeProperty, type PropertyRun } from '../../test/support/decode-property';

const SEED = Number(process.env.DECODE_PROPERTY_SEED ?? 20_251_114);
const RUNS = Number(process.env.DECODE_PROPERTY_RUNS ?? 200);

describe('every accepted style decodes (fast-check)', () => {
  let run: PropertyRun;

  beforeAll(async () => {
    run = await runDecodeProperty(SEED, RUNS);
    console.log(describeRun(run));
  }, 600_000);

  it(`reads ${RUNS} random accepted styles with two of the four decoders and zbar`, () => {
    expect(run.runs).toBe(RUNS);
    expect(run.failures.map((failure) => failure.index)).toEqual([]);
  });
});
