/**
 * Worker thread of decode-pool.ts: renders each job's style with the service's renderer and reads
 * it with the four decoders (qr-decoders.ts readWidths), under the job's read condition. Runs outside jest's sandbox, so jsQR's
 * pixel loops run at full speed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { renderQrSvg } from '../../src/rendering/render-qr-svg';
import type { DecodeJob, DecodeOutcome } from './decode-pool';
import { releaseNativeRasters } from './decode-svg';
import { readWidths, stopZxingCpp1Reader } from './qr-decoders';

async function run(jobs: DecodeJob[]): Promise<DecodeOutcome[]> {
  const outcomes: DecodeOutcome[] = [];
  for (const job of jobs) {
    // No thresholds: every shape drawn as it is, however small (module-size-rule.decode-spec.ts measures them).
    const svg = renderQrSvg({ text: job.text, style: job.style, size: job.size, shapeThresholds: job.shapesAtAnySize ? {} : undefined });
    outcomes.push({
      index: job.index,
      widths: await readWidths(svg, job.size, job.text, { nativeOnly: job.nativeOnly, condition: job.condition, decoders: job.decoders }),
    });
    await releaseNativeRasters();
  }
  return outcomes;
}

run((workerData as { jobs: DecodeJob[] }).jobs)
  .then(
    (outcomes) => parentPort?.postMessage({ outcomes }),
    (error: unknown) => parentPort?.postMessage({ error: error instanceof Error ? error.stack : String(error) }),
  )
  .finally(stopZxingCpp1Reader);
