import { buildQrMatrix } from './qr-matrix';
import { drawnModuleCount, smallestDecodableSize, smallestSizeFor } from './smallest-size';
import { layoutCode } from './code-layout';
import { minimumDrawnVersion } from './drawn-version';
import type { QrStyle } from './style/qr-style';

const LONG_TEXT = 'a'.repeat(1000);

describe('smallestDecodableSize', () => {
  it('counts the modules the renderer draws (its version choice, logo minimum included)', () => {
    const withLogo: QrStyle = { image: 'data:image/png;base64,AAAA', qrOptions: { errorCorrectionLevel: 'H' } };
    for (const [text, style] of [
      [LONG_TEXT, {}],
      ['hi', {}],
      ['hi', withLogo],
    ] as Array<[string, QrStyle]>) {
      const level = style.qrOptions?.errorCorrectionLevel ?? 'M';
      expect(drawnModuleCount(text, style)).toBe(buildQrMatrix(text, level, minimumDrawnVersion(style)).size);
    }
    expect(drawnModuleCount('a'.repeat(3000), {})).toBeNull();
  });

  it('is the smallest size with two-pixel modules and a one-module border: 2 × (121 + 2) for a 1,000-byte code (margin cut to fit)', () => {
    expect(drawnModuleCount(LONG_TEXT, {})).toBe(121);
    expect(smallestDecodableSize(LONG_TEXT, {}, 100, 2000)).toBe(246);
    expect(layoutCode(241, 121, 0, 'square', true).moduleSize).toBe(1);
    // At 242 the modules are 2 px but the code touches the image's edge (zbar missed it there).
    expect(layoutCode(242, 121, 8, 'square', true)).toMatchObject({ moduleSize: 2, x: 0 });
    expect(layoutCode(246, 121, 8, 'square', true)).toMatchObject({ moduleSize: 2, x: 2 });
    expect(smallestDecodableSize(LONG_TEXT, { margin: 40 }, 100, 2000)).toBe(246);
    expect(smallestDecodableSize(LONG_TEXT, { margin: 0 }, 100, 2000)).toBe(246);
  });

  it('is the range minimum when the code has modules of two pixels or more there (short texts, dynamic links)', () => {
    expect(smallestDecodableSize('https://qr.example.com/r/aZ3kP9qL', {}, 100, 2000)).toBe(100);
  });

  it('takes a circle into account, and never exceeds the style check min_size', () => {
    const circle: QrStyle = { shape: 'circle', dotsOptions: { type: 'classy-rounded' } };
    const decodable = smallestDecodableSize(LONG_TEXT, circle, 100, 2000)!;
    expect(decodable).toBe(Math.ceil(2 * 121 * Math.SQRT2));
    expect(decodable).toBeLessThan(smallestSizeFor(circle, 121, 100, 2000).size!);
    expect(smallestDecodableSize(LONG_TEXT, {}, 100, 2000)).toBe(smallestSizeFor({}, 121, 100, 2000).size);
  });

  it('is null when no size in the range gives two-pixel modules', () => {
    expect(smallestDecodableSize(LONG_TEXT, {}, 100, 200)).toBeNull();
  });
});
