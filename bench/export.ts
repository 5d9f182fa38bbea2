/**
 * Export benchmark: exported files per second, one core, one process, nothing cached (a new text
 * each time, as a cache miss of /export or a ZIP export renders it).
 *
 *   node -r @swc-node/register bench/export.ts [--seconds=5]
 *
 * Prints renders per second and file size for:
 * - PNG at 1000 px (SVG rendered by @resvg/resvg-js, pHYs written), plain and styled (rounded
 *   dots, a gradient, a logo and a banner frame);
 * - vector PDF 40 mm wide (pdfkit), plain and styled;
 * - SVG at 1000 px, for comparison.
 * Shared machines are noisy: compare the figures of one run, not runs with each other.
 */
import { checkeredLogo } from '../src/rendering/__fixtures__/png-data-uri';
import { renderExportFile, type ExportOptions } from '../src/rendering/export/export-file';
import type { QrStyle } from '../src/rendering/style/qr-style';

const seconds = Number(process.argv.find((argument) => argument.startsWith('--seconds='))?.split('=')[1] ?? 5);

const STYLED: QrStyle = {
  dotsOptions: {
    type: 'rounded',
    gradient: {
      type: 'linear',
      rotation: 45,
      colorStops: [
        { offset: 0, color: '#1a237e' },
        { offset: 1, color: '#4a148c' },
      ],
    },
  },
  image: checkeredLogo(),
  frameOptions: { type: 'banner-bottom', text: 'Scan for the menu', color: '#1a237e' },
};

async function measure(label: string, style: QrStyle, options: ExportOptions): Promise<void> {
  const text = (iteration: number) => `https://qr.example/r/${iteration.toString(36).padStart(8, '0')}`;
  for (let warm = 0; warm < 5; warm++) await renderExportFile({ text: text(1e9 + warm), style }, options);
  let count = 0;
  let bytes = 0;
  const started = process.hrtime.bigint();
  const until = started + BigInt(Math.round(seconds * 1e9));
  while (process.hrtime.bigint() < until) {
    const file = await renderExportFile({ text: text(count), style }, options);
    bytes += file.bytes.length;
    count++;
  }
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const rate = (count / elapsed).toFixed(1).padStart(8);
  const each = ((elapsed / count) * 1000).toFixed(2).padStart(8);
  console.log(`${label.padEnd(34)} ${rate} /s  ${each} ms each  ${Math.round(bytes / count / 1024)} KB`);
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${seconds} s per figure, one process`);
  await measure('PNG 1000 px, plain', {}, { format: 'png', size: 1000 });
  await measure('PNG 1000 px, styled + frame', STYLED, { format: 'png', size: 1000 });
  await measure('PDF 40 mm (vector), plain', {}, { format: 'pdf', widthMm: 40 });
  await measure('PDF 40 mm (vector), styled + frame', STYLED, { format: 'pdf', widthMm: 40 });
  await measure('SVG 1000 px, styled + frame', STYLED, { format: 'svg', size: 1000 });
}

void main();
