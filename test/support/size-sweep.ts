/**
 * The size-header sweep (issue 35 item 6): a fixed sample of styles, each rendered at every 2 px
 * from the X-QR-Min-Decodable-Size header the service sends for it (smallestDecodableSize) to
 * twice that, and read by each of the four decoders at its own raster (the image the service sent
 * at the size asked for) or, for a decoder that missed it there, as a camera sees it (the decode
 * matrix's rule). Run by src/rendering/size-header.decode-spec.ts.
 */
import { MAX_SIZE, MIN_SIZE } from '../../src/rendering/image-size-range';
import { smallestDecodableSize } from '../../src/rendering/smallest-size';
import type { QrStyle } from '../../src/rendering/style/qr-style';
import { decodeInWorkers } from './decode-pool';
import { DECODER_NAMES, type DecoderName } from './qr-decoders';

export interface SweepSample {
  name: string;
  text: string;
  style: QrStyle;
}

/** A 1,001-byte static text (byte mode: lower case and punctuation), version 36 at EC H. */
export const LONG_TEXT = (() => {
  const words = 'scan this code to read the whole notice, printed at any size the header allows; ';
  return words.repeat(Math.ceil(1001 / words.length)).slice(0, 1001);
})();

/** A 109-byte URL. */
export const URL_109 = `https://example.com/campaigns/2026/spring/${'landing-page-'.repeat(4)}?utm_source=poster&utm_medium=print`.slice(0, 109);

const DOTS_H: QrStyle = { qrOptions: { errorCorrectionLevel: 'H' }, dotsOptions: { type: 'dots' } };

const CLASSY_GRADIENTS: QrStyle = {
  dotsOptions: {
    type: 'classy',
    gradient: {
      type: 'radial',
      colorStops: [
        { offset: 0, color: '#1e3a8a' },
        { offset: 1, color: '#6b21a8' },
      ],
    },
  },
  cornersSquareOptions: {
    type: 'extra-rounded',
    gradient: {
      type: 'linear',
      rotation: 45,
      colorStops: [
        { offset: 0, color: '#111827' },
        { offset: 1, color: '#1e40af' },
      ],
    },
  },
  cornersDotOptions: {
    gradient: {
      type: 'linear',
      rotation: 90,
      colorStops: [
        { offset: 0, color: '#1e40af' },
        { offset: 1, color: '#111827' },
      ],
    },
  },
};

export const SWEEP_SAMPLES: SweepSample[] = [
  { name: 'dots at EC H, 1,001-byte text', text: LONG_TEXT, style: DOTS_H },
  { name: 'dots at EC H, 1,001-byte text, margin 0', text: LONG_TEXT, style: { ...DOTS_H, margin: 0 } },
  { name: 'classy dots, radial and linear gradients, extra-rounded rings, 109-byte URL', text: URL_109, style: CLASSY_GRADIENTS },
  {
    name: 'rounded, dot finders, circle shape, 109-byte URL',
    text: URL_109,
    style: { shape: 'circle', dotsOptions: { type: 'rounded' }, cornersSquareOptions: { type: 'dot' }, cornersDotOptions: { type: 'dot' } },
  },
];

/** One size of one sample that some decoder did not read. */
export interface SweepMiss {
  sample: string;
  size: number;
  decoders: DecoderName[];
}

export interface SweepRun {
  decoders: readonly DecoderName[];
  /** per sample: its header and the sizes swept */
  headers: Array<{ sample: string; header: number; sizes: number[] }>;
  images: number;
  /** not read at the image's own raster */
  ownRasterMisses: SweepMiss[];
  /** not read at the own raster nor as a camera sees it (qr-decoders.ts cameraWidths): the failures */
  misses: SweepMiss[];
  seconds: number;
}

/** Every 2 px from the header to twice it (within the image size range). */
export function sweepSizes(header: number): number[] {
  const sizes: number[] = [];
  for (let size = header; size <= Math.min(2 * header, MAX_SIZE); size += 2) sizes.push(size);
  return sizes;
}

/** Headers as the service computes them; throws when a sample has none. */
function sampleHeaders(samples: SweepSample[]): SweepRun['headers'] {
  return samples.map((sample) => {
    const header = smallestDecodableSize(sample.text, sample.style, MIN_SIZE, MAX_SIZE);
    if (header === null) throw new Error(`${sample.name}: no decodable size`);
    return { sample: sample.name, header, sizes: sweepSizes(header) };
  });
}

/**
 * Reads every sample at every swept size, at its own raster and, for a decoder that missed it
 * there, as a camera sees it (the decode matrix's rule), on every core (decode-pool.ts).
 */
export async function runSizeSweep(samples: SweepSample[] = SWEEP_SAMPLES, decoders: readonly DecoderName[] = DECODER_NAMES): Promise<SweepRun> {
  const started = Date.now();
  const headers = sampleHeaders(samples);
  const jobs = samples.flatMap((sample, index) =>
    headers[index].sizes.map((size) => ({ sample: sample.name, text: sample.text, style: sample.style, size, decoders })),
  );
  const widths = await decodeInWorkers(jobs);
  const ownRasterMisses: SweepMiss[] = [];
  const misses: SweepMiss[] = [];
  widths.forEach((read, index) => {
    const { sample, size } = jobs[index];
    const notOwn = decoders.filter((name) => read[name] !== size);
    const never = decoders.filter((name) => read[name] === null);
    if (notOwn.length > 0) ownRasterMisses.push({ sample, size, decoders: notOwn });
    if (never.length > 0) misses.push({ sample, size, decoders: never });
  });
  return { decoders, headers, images: jobs.length, ownRasterMisses, misses, seconds: (Date.now() - started) / 1000 };
}

function missLines(label: string, missed: SweepMiss[]): string[] {
  const byDecoder = new Map<DecoderName, number[]>();
  for (const miss of missed) for (const name of miss.decoders) byDecoder.set(name, [...(byDecoder.get(name) ?? []), miss.size]);
  return [...byDecoder].map(([name, sizes]) => `    ${label} by ${name} at ${sizes.length}: ${sizes.join(' ')}`);
}

export function describeSweep(run: SweepRun): string {
  const lines = [
    `size sweep (${run.decoders.join(', ')}): ${run.images} images, ${run.ownRasterMisses.length} missed at their own raster by some decoder, ` +
      `${run.misses.length} also as a camera sees them, ${run.seconds.toFixed(1)} s`,
  ];
  for (const { sample, header, sizes } of run.headers) {
    lines.push(`  ${sample}: header ${header}, ${sizes.length} sizes ${sizes[0]}–${sizes[sizes.length - 1]}`);
    lines.push(
      ...missLines(
        'own raster missed',
        run.ownRasterMisses.filter((miss) => miss.sample === sample),
      ),
    );
    lines.push(
      ...missLines(
        'never read',
        run.misses.filter((miss) => miss.sample === sample),
      ),
    );
  }
  return lines.join('\n');
}
