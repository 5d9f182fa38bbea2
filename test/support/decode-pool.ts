/**
 * Renders and decodes many styles on every core: each worker thread (decode-worker.ts) takes an
 * interleaved share of the jobs. The decode matrix and the property test run thousands of images;
 * on CI's two cores this halves their time.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { QrStyle } from '../../src/rendering/style/qr-style';
import type { DecoderName, ReadCondition, ReadWidths } from './qr-decoders';

export interface DecodeJob {
  index: number;
  text: string;
  style: QrStyle;
  size: number;
  /** draw every shape as it is, without the small-module rule */
  shapesAtAnySize?: boolean;
  /** read the raster at the image's own size only, not at cameraWidths */
  nativeOnly?: boolean;
  /** how each raster is looked at (qr-decoders.ts READ_CONDITIONS); default `own` */
  condition?: ReadCondition;
  /** the decoders that read; default all four */
  decoders?: readonly DecoderName[];
}

export interface DecodeOutcome {
  index: number;
  widths: ReadWidths;
}

const WORKER = join(__dirname, 'decode-worker.ts');

function runWorker(jobs: DecodeJob[]): Promise<DecodeOutcome[]> {
  return new Promise((resolve, reject) => {
    // The worker is TypeScript: swc compiles it on load, as for the bench scripts.
    const worker = new Worker(`require('@swc-node/register'); require(${JSON.stringify(WORKER)});`, { eval: true, workerData: { jobs } });
    worker.once('message', (message: { outcomes?: DecodeOutcome[]; error?: string }) => {
      void worker.terminate();
      if (message.outcomes) resolve(message.outcomes);
      else reject(new Error(`decode worker failed: ${message.error}`));
    });
    worker.once('error', reject);
  });
}

/** Outcomes in the order of `jobs` (each job's `index` is its position). */
export async function decodeInWorkers(jobs: Omit<DecodeJob, 'index'>[], threads = availableParallelism()): Promise<ReadWidths[]> {
  const indexed = jobs.map((job, index) => ({ ...job, index }));
  const shares = Array.from({ length: Math.max(1, Math.min(threads, jobs.length)) }, (_, share) =>
    indexed.filter((job) => job.index % threads === share),
  );
  const outcomes = (await Promise.all(shares.map(runWorker))).flat();
  const widths: ReadWidths[] = new Array<ReadWidths>(jobs.length);
  for (const outcome of outcomes) widths[outcome.index] = outcome.widths;
  return widths;
}
