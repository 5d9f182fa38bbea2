/**
 * The decode property at 10,000 random accepted styles (the decode tier runs 200):
 *
 *   node -r @swc-node/register bench/decode-property.ts [runs] [seed]
 *
 * Prints the seed, the failure rate and the first failures (each replayable with its seed and index).
 */
import { describeRun, runDecodeProperty } from '../test/support/decode-property';

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 10_000);
  const seed = Number(process.argv[3] ?? Date.now() % 2 ** 31);
  console.log(`decode property: seed ${seed}, ${runs} runs`);
  const run = await runDecodeProperty(seed, runs, (done) => console.log(`  ${done} decoded`));
  console.log(describeRun(run));
  if (run.failures.length > 0) process.exitCode = 1;
}

void main();
