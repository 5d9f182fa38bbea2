/**
 * Every exported file decodes back to its content: PNGs as they are, PDFs rasterised by pdftoppm
 * (test/support/pdf-raster.ts), each read by all four decoders (test/support/qr-decoders.ts); frames
 * of every shape with long, Greek and Cyrillic text, and styles that test what a frame must not eat.
 */
import { decodePng, flattenOnWhite } from '../../../test/support/png-reader';
import { rasterisePdf } from '../../../test/support/pdf-raster';
import { rasteriseSvg } from '../../../test/support/decode-svg';
import { decodeWithAll, misreadBy, stopZxingCpp1Reader } from '../../../test/support/qr-decoders';
import { checkeredLogo } from '../__fixtures__/png-data-uri';
import { FRAME_TYPES, type FrameType, type QrStyle } from '../style/qr-style';
import { renderExportFile } from './export-file';
import { pngResolution } from './png-file';
import { pixelsForWidth } from './print-size';

afterAll(() => stopZxingCpp1Reader());

const TEXT = 'https://example.com/r/Xy7Kq2Lm';
const FRAME_TEXTS: Record<string, string> = {
  long: 'Scan for the full menu & more',
  greek: 'Σαρώστε με για το μενού',
  cyrillic: 'Сканируйте, чтобы открыть меню',
};

async function misreadersOfPng(bytes: Buffer, text: string): Promise<string[]> {
  return misreadBy(await decodeWithAll(flattenOnWhite(decodePng(bytes))), text);
}

async function misreadersOfPdf(bytes: Buffer, text: string, dpi: number): Promise<string[]> {
  return misreadBy(await decodeWithAll(rasterisePdf(bytes, dpi)), text);
}

describe('exported files decode', () => {
  const framed = FRAME_TYPES.filter((type): type is Exclude<FrameType, 'none'> => type !== 'none');

  describe.each(framed)('frame %s', (type) => {
    it.each(Object.entries(FRAME_TEXTS))('with %s text: PNG at 600 px and PDF 50 mm wide read by every decoder', async (_label, frameText) => {
      expect([...frameText].length).toBeLessThanOrEqual(30);
      const style: QrStyle = { dotsOptions: { type: 'rounded', color: '#1a237e' }, frameOptions: { type, text: frameText, color: '#1a237e' } };
      const png = await renderExportFile({ text: TEXT, style }, { format: 'png', size: 600 });
      expect(png.pixelHeight).toBeGreaterThan(600);
      expect(await misreadersOfPng(png.bytes, TEXT)).toEqual([]);
      const pdf = await renderExportFile({ text: TEXT, style }, { format: 'pdf', widthMm: 50 });
      expect(await misreadersOfPdf(pdf.bytes, TEXT, 300)).toEqual([]);
    });
  });

  it.each<[string, QrStyle]>([
    ['no margin (the frame pads the quiet zone)', { margin: 0, frameOptions: { type: 'banner-bottom' } }],
    ['no margin in a box on a transparent background', { margin: 0, backgroundOptions: { color: 'transparent' }, frameOptions: { type: 'box' } }],
    ['the circle shape without margin', { shape: 'circle', margin: 0, frameOptions: { type: 'banner-top', color: '#004d40' } }],
    [
      'gradients and a logo',
      {
        dotsOptions: {
          type: 'classy-rounded',
          gradient: {
            type: 'linear',
            rotation: 45,
            colorStops: [
              { offset: 0, color: '#1a237e' },
              { offset: 1, color: '#4a148c' },
            ],
          },
        },
        backgroundOptions: {
          gradient: {
            type: 'radial',
            colorStops: [
              { offset: 0, color: '#ffffff' },
              { offset: 1, color: '#e3f2fd' },
            ],
          },
        },
        image: checkeredLogo(),
        frameOptions: { type: 'bubble', color: '#4a148c', font: 'roboto' },
      },
    ],
  ])('%s: PNG and PDF read by every decoder', async (_label, style) => {
    const png = await renderExportFile({ text: TEXT, style }, { format: 'png', size: 500 });
    expect(await misreadersOfPng(png.bytes, TEXT)).toEqual([]);
    const pdf = await renderExportFile({ text: TEXT, style }, { format: 'pdf', widthMm: 50, bleedMm: 3 });
    expect(await misreadersOfPdf(pdf.bytes, TEXT, 300)).toEqual([]);
  });

  // pdfkit reads PNG and JPEG only: a WebP logo reaches the PDF as resvg's raster of it (pdf-file.ts, pdfLogo).
  it('a WebP logo is embedded in the PDF as a raster, and the PDF decodes', async () => {
    const webp = 'data:image/webp;base64,UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==';
    const pdf = await renderExportFile({ text: TEXT, style: { image: webp } }, { format: 'pdf', widthMm: 50 });
    expect(pdf.bytes.toString('latin1')).toMatch(/\/Subtype \/Image/);
    expect(await misreadersOfPdf(pdf.bytes, TEXT, 300)).toEqual([]);
    const withoutLogo = await renderExportFile({ text: TEXT, style: {} }, { format: 'pdf', widthMm: 50 });
    expect(withoutLogo.bytes.toString('latin1')).not.toMatch(/\/Subtype \/Image/);
  });

  it('a PNG sized in millimetres has the pixels and the resolution asked for, and decodes', async () => {
    const file = await renderExportFile({ text: TEXT, style: {} }, { format: 'png', widthMm: 30, dpi: 600 });
    const image = decodePng(file.bytes);
    expect(image.width).toBe(pixelsForWidth(30, 600));
    expect(pngResolution(file.bytes)).toBe(600);
    expect(await misreadersOfPng(file.bytes, TEXT)).toEqual([]);
  });

  it('the smallest printable width still decodes as a PDF rasterised at 300 dpi', async () => {
    const long = 'https://example.com/' + 'abcdefghij'.repeat(8);
    const refused = await renderExportFile({ text: long, style: {} }, { format: 'pdf', widthMm: 10 }).catch(
      (error: { errors: Array<{ message: string }> }) => error,
    );
    const smallest = Number(/use width_mm (\d+)/.exec((refused as { errors: Array<{ message: string }> }).errors[0].message)?.[1]);
    expect(smallest).toBeGreaterThan(10);
    const pdf = await renderExportFile({ text: long, style: {} }, { format: 'pdf', widthMm: smallest });
    expect(pdf.moduleSizeMm).toBeGreaterThanOrEqual(0.33);
    expect(await misreadersOfPdf(pdf.bytes, long, 300)).toEqual([]);
  });

  it('an SVG sized in millimetres says so and decodes', async () => {
    const file = await renderExportFile({ text: TEXT, style: { frameOptions: { type: 'banner-bottom' } } }, { format: 'svg', widthMm: 40 });
    const svg = file.bytes.toString();
    expect(svg).toMatch(/^<svg[^>]*\swidth="[\d.]+mm"/);
    expect(misreadBy(await decodeWithAll(rasteriseSvg(svg, 600)), TEXT)).toEqual([]);
  });
});
