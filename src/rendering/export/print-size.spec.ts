import { drawnModuleCount } from '../smallest-size';
import { measureExport, ExportRefused } from './export-file';
import { MIN_MODULE_MM, moduleSizeMm, pixelsForWidth, smallestPrintWidthMm } from './print-size';
import { pngResolution, withResolution } from './png-file';

const LONG = 'https://example.com/' + 'abcdefghij'.repeat(12);

describe('print sizes', () => {
  it.each([
    [25.4, 300, 300],
    [40, 300, 472],
    [10, 72, 28],
    [1000, 1200, 47244],
  ])('%s mm at %s dpi is %s px', (widthMm, dpi, pixels) => {
    expect(pixelsForWidth(widthMm, dpi)).toBe(pixels);
  });

  it.each([
    ['a short link', 'https://qr.example/r/Ab3dE7x', {}],
    ['a long text', LONG, {}],
    ['a long text in a circle', LONG, { shape: 'circle' as const }],
    ['a long text at level H', LONG, { qrOptions: { errorCorrectionLevel: 'H' as const } }],
  ])('the smallest printable width of %s is the first whole width whose modules reach 0.33 mm', (_label, text, style) => {
    const count = drawnModuleCount(text, style)!;
    for (const dpi of [72, 300, 1200]) {
      const smallest = smallestPrintWidthMm(style, count, dpi)!;
      expect(moduleSizeMm(style, count, pixelsForWidth(smallest, dpi), smallest)).toBeGreaterThanOrEqual(MIN_MODULE_MM);
      if (smallest > 10) expect(moduleSizeMm(style, count, pixelsForWidth(smallest - 1, dpi), smallest - 1)).toBeLessThan(MIN_MODULE_MM);
    }
  });

  it('refuses a width under the floor naming width_mm and the smallest width, and reports the module width otherwise', () => {
    const source = { text: LONG, style: {} };
    let refused: unknown;
    try {
      measureExport(source, { format: 'pdf', widthMm: 15 });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ExportRefused);
    const [problem] = (refused as ExportRefused).errors;
    expect(problem.field).toBe('width_mm');
    const smallest = smallestPrintWidthMm({}, drawnModuleCount(LONG, {})!, 300);
    expect(problem.message).toContain(`use width_mm ${smallest} or more`);
    expect(measureExport(source, { format: 'pdf', widthMm: smallest! }).moduleSizeMm).toBeGreaterThanOrEqual(MIN_MODULE_MM);
  });

  it('warns of modules under 2 px for pixel sizes, never for PDF', () => {
    const text = LONG.repeat(3);
    expect(measureExport({ text, style: {} }, { format: 'png', size: 100 }).warning).toMatch(/use size \d+ or more/);
    expect(measureExport({ text, style: {} }, { format: 'svg', size: 100 }).warning).not.toBeNull();
    expect(measureExport({ text, style: {} }, { format: 'pdf', size: 100 }).warning).toBeNull();
    expect(measureExport({ text, style: {} }, { format: 'png', size: 2000 }).warning).toBeNull();
  });

  it('bounds a PNG to 4000 px, naming dpi', () => {
    expect(() => measureExport({ text: 'x', style: {} }, { format: 'png', widthMm: 400, dpi: 300 })).toThrow(/dpi: .* use dpi 254 or less/);
    expect(measureExport({ text: 'x', style: {} }, { format: 'pdf', widthMm: 400, dpi: 300 }).canvasSize).toBe(4724);
  });
});

describe('PNG resolution', () => {
  const png = (chunks: Array<[string, Buffer]>) => {
    const parts: Buffer[] = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])];
    for (const [type, data] of chunks) {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      parts.push(length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4));
    }
    return Buffer.concat(parts);
  };

  it('writes pHYs after IHDR, replacing one already there', () => {
    const original = png([
      ['IHDR', Buffer.alloc(13)],
      ['pHYs', Buffer.alloc(9)],
      ['IDAT', Buffer.alloc(3)],
      ['IEND', Buffer.alloc(0)],
    ]);
    const written = withResolution(original, 600);
    expect(pngResolution(written)).toBe(600);
    expect(written.toString('latin1').match(/pHYs/g)).toHaveLength(1);
    expect(written.indexOf('pHYs')).toBeLessThan(written.indexOf('IDAT'));
    expect(pngResolution(original)).toBeNull(); // its pHYs had no unit
  });
});
