/**
 * QR rendering benchmark: matrix builders, cold styled renders, SVG size against qr-code-styling.
 *
 *   node -r @swc-node/register bench/render.ts [--seconds=2]
 *
 * (or compile it: npx tsc --outDir /tmp/qr-bench --module commonjs --target ES2022 --esModuleInterop
 *  --skipLibCheck bench/render.ts && node /tmp/qr-bench/bench/render.js)
 *
 * Prints, one core, one process:
 * - matrix builds per second for a version-3 and a version-10 code: our encoder (the renderer's
 *   choice), the `qrcode` package and `qrcode-svg` (the originally named library);
 * - cold renders per second of a version-5 code with rounded dots, a linear gradient and a logo
 *   (a new text each time, so nothing is cached) — target ≥ 1,000/s;
 * - that render's SVG size next to qr-code-styling's for the same options — target ≤ one fifth.
 * Shared machines are noisy: compare the figures of one run, not runs with each other.
 */
import { JSDOM, type ConstructorOptions } from 'jsdom';
import QRCodeStyling from 'qr-code-styling';
import QRCode from 'qrcode';
import QRCodeSvg from 'qrcode-svg';
import { checkeredLogo } from '../src/rendering/__fixtures__/png-data-uri';
import { imageDimensions } from '../src/rendering/image-dimensions';
import { buildQrMatrix } from '../src/rendering/qr-matrix';
import { renderQrSvg } from '../src/rendering/render-qr-svg';
import type { ErrorCorrectionLevel, QrStyle } from '../src/rendering/style/qr-style';

const seconds = Number(process.argv.find((argument) => argument.startsWith('--seconds='))?.split('=')[1] ?? 2);

/** Calls per second of fn(i) with a fresh i each call, after a short warm-up. */
function ratePerSecond(fn: (iteration: number) => unknown): number {
  let iteration = 0;
  const warmUpEnd = performance.now() + 300;
  while (performance.now() < warmUpEnd) fn(iteration++);
  const start = performance.now();
  const end = start + seconds * 1000;
  let calls = 0;
  while (performance.now() < end) {
    for (let batch = 0; batch < 10; batch++) fn(iteration++);
    calls += 10;
  }
  return (calls * 1000) / (performance.now() - start);
}

/** A text of the given version at the level, with room for a varying 6-character suffix. */
function textOfVersion(version: number, level: ErrorCorrectionLevel): string {
  let filler = '';
  while (buildQrMatrix(`https://example.com/${filler}000000`, level).version < version) filler += 'a';
  return `https://example.com/${filler}`;
}

const varied = (base: string, iteration: number): string => base + String(iteration % 1_000_000).padStart(6, '0');
const format = (value: number): string => Math.round(value).toLocaleString('en-US');

function matrixRates(version: number): void {
  const base = textOfVersion(version, 'M');
  const ours = ratePerSecond((i) => buildQrMatrix(varied(base, i), 'M'));
  const qrcode = ratePerSecond((i) => QRCode.create(varied(base, i), { errorCorrectionLevel: 'M' }));
  const qrcodeSvg = ratePerSecond((i) => new QRCodeSvg({ content: varied(base, i), ecl: 'M' }));
  console.log(
    `matrix v${version} (level M): ours ${format(ours)}/s · qrcode ${format(qrcode)}/s · qrcode-svg ${format(qrcodeSvg)}/s` +
      ` (ours ${(ours / qrcode).toFixed(1)}× qrcode, ${(ours / qrcodeSvg).toFixed(1)}× qrcode-svg)`,
  );
}

/** jsdom cannot load images: this one reports the logo's header dimensions, as a browser would. */
class JsdomWithImageSizes extends JSDOM {
  constructor(html?: string, options?: ConstructorOptions) {
    super(html, options);
    class HeaderSizedImage {
      width = 0;
      height = 0;
      onload: (() => void) | null = null;
      private source = '';
      get src(): string {
        return this.source;
      }
      set src(value: string) {
        this.source = value;
        ({ width: this.width, height: this.height } = imageDimensions(value) ?? { width: 1, height: 1 });
        setTimeout(() => this.onload?.(), 0);
      }
    }
    Object.assign(this.window, { Image: HeaderSizedImage });
  }
}

async function qrCodeStylingBytes(text: string, style: QrStyle, size: number, rotationDegrees: number): Promise<number> {
  const styling = new QRCodeStyling({
    jsdom: JsdomWithImageSizes,
    type: 'svg',
    width: size,
    height: size,
    data: text,
    margin: style.margin,
    qrOptions: { errorCorrectionLevel: 'H' },
    dotsOptions: { ...style.dotsOptions, gradient: { ...style.dotsOptions!.gradient!, rotation: (rotationDegrees * Math.PI) / 180 } },
    image: style.image,
    imageOptions: { saveAsBlob: false },
  } as ConstructorParameters<typeof QRCodeStyling>[0]);
  const raw = await styling.getRawData('svg');
  return raw ? (raw as Buffer).length : 0;
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${seconds} s per figure\n`);
  matrixRates(3);
  matrixRates(10);

  const rotation = 45;
  const style: QrStyle = {
    dotsOptions: {
      type: 'rounded',
      gradient: {
        type: 'linear',
        rotation,
        colorStops: [
          { offset: 0, color: '#1a237e' },
          { offset: 1, color: '#b71c1c' },
        ],
      },
    },
    image: checkeredLogo(32, 32),
    margin: 12,
  };
  const base = textOfVersion(5, 'H');
  const size = 300;
  const renders = ratePerSecond((i) => renderQrSvg({ text: varied(base, i), style, size }));
  console.log(`\ncold render v5 (rounded dots, linear gradient, logo, level H, ${size} px): ${format(renders)}/s (target ≥ 1,000/s)`);

  const text = varied(base, 0);
  const ours = Buffer.byteLength(renderQrSvg({ text, style, size }));
  const theirs = await qrCodeStylingBytes(text, style, size, rotation);
  console.log(
    `SVG bytes, same options: ours ${format(ours)} · qr-code-styling ${format(theirs)} · ratio 1/${(theirs / ours).toFixed(1)} (target ≤ 1/5)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
