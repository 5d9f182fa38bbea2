/**
 * The decode property: random accepted styles (test/support/style-arbitrary.ts) each read back by
 * at least two of the four decoders and by zbar. Shared by the CI test (1,000 runs) and the bench
 * (10,000): both print the seed and the failure rate, and a failure names its case to replay.
 */
import fc from 'fast-check';
import { decodeInWorkers } from './decode-pool';
import { DECODER_NAMES, type ReadWidths } from './qr-decoders';
import { decodeCase, type DecodeCase } from './style-arbitrary';

export interface PropertyRun {
  seed: number;
  runs: number;
  failures: Array<{ index: number; input: DecodeCase; widths: ReadWidths }>;
  seconds: number;
}

/** Read by two of the four decoders and by zbar. */
export function holds(widths: ReadWidths): boolean {
  return DECODER_NAMES.filter((name) => widths[name] !== null).length >= 2 && widths.zbar !== null;
}

const CHUNK = 500;

export async function runDecodeProperty(seed: number, runs: number, onProgress?: (done: number) => void): Promise<PropertyRun> {
  const started = Date.now();
  const inputs = fc.sample(decodeCase, { seed, numRuns: runs });
  // Fresh workers every CHUNK cases: the decoders' WebAssembly memory only grows.
  const widths: ReadWidths[] = [];
  for (let start = 0; start < inputs.length; start += CHUNK) {
    widths.push(...(await decodeInWorkers(inputs.slice(start, start + CHUNK))));
    onProgress?.(widths.length);
  }
  const failures = inputs.flatMap((input, index) => (holds(widths[index]) ? [] : [{ index, input, widths: widths[index] }]));
  return { seed, runs, failures, seconds: (Date.now() - started) / 1000 };
}

export function describeRun(run: PropertyRun): string {
  const rate = ((run.failures.length / run.runs) * 100).toFixed(2);
  const lines = [`decode property: seed ${run.seed}, ${run.runs} runs, ${run.failures.length} failures (${rate} %), ${run.seconds.toFixed(1)} s`];
  for (const failure of run.failures.slice(0, 20)) {
    const { text, size, style } = failure.input;
    lines.push(
      `  #${failure.index} size ${size}, read at ${JSON.stringify(failure.widths)}, text ${JSON.stringify(text.slice(0, 80))}, ` +
        `style ${JSON.stringify({ ...style, image: style.image ? '(logo)' : undefined })}`,
    );
  }
  return lines.join('\n');
}
