/**
 * The whole decode matrix (test/support/decode-matrix.ts: 4,608 combinations, the decode tier reads
 * a seventh of it), with each decoder's read rate per size and read condition (own raster; from
 * 300 px also downscaled by half and blurred):
 *
 *   node -r @swc-node/register bench/decode-matrix.ts
 *
 * Exits non-zero when any accepted combination is missed by any decoder.
 */
import { allReadings, describeMatrix, matrixCombinations, runMatrix, sampleIndices } from '../test/support/decode-matrix';
import { DECODER_NAMES } from '../test/support/qr-decoders';

async function main(): Promise<void> {
  const combinations = matrixCombinations();
  const run = await runMatrix(combinations, sampleIndices(combinations.length, 1));
  console.log(describeMatrix(combinations, run));
  const misses = allReadings(run).filter(({ widths }) => DECODER_NAMES.some((name) => widths[name] === null));
  for (const { condition, index, widths } of misses.slice(0, 40))
    console.log(`  missed: ${combinations[index].size} px ${condition} ${combinations[index].name} ${JSON.stringify(widths)}`);
  if (misses.length > 0) process.exitCode = 1;
}

void main();
