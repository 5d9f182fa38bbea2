import { buildQrMatrix } from './qr-matrix';
import { dataModuleShare, LOGO_CODEWORD_LIMIT, minimumDrawnVersion, MIN_DRAWN_VERSION } from './drawn-version';
import { RECOVERABLE_CODEWORD_SHARE } from './style/scannability';
import type { QrStyle } from './style/qr-style';

const LOGO = 'data:image/png;base64,iVBORw0KGgo=';

describe('dataModuleShare', () => {
  it.each([
    [1, 208 / 441],
    [2, 359 / 625],
    [5, 1079 / 1369],
    [7, 1568 / 2025],
  ])('version %i: %f of the modules carry codewords', (version, share) => {
    expect(dataModuleShare(version)).toBeCloseTo(share, 6);
  });
});

describe('minimumDrawnVersion', () => {
  it.each<[string, QrStyle, number]>([
    ['no logo', {}, MIN_DRAWN_VERSION],
    ['the default logo (0.4) at the automatic level H', { image: LOGO }, 3],
    ['the largest logo level H admits', { image: LOGO, imageOptions: { imageSize: 0.42 } }, 4],
    ['a logo near the limit of level Q', { image: LOGO, imageOptions: { imageSize: 0.38 }, qrOptions: { errorCorrectionLevel: 'Q' } }, 4],
    ['a small logo at level Q', { image: LOGO, imageOptions: { imageSize: 0.2 }, qrOptions: { errorCorrectionLevel: 'Q' } }, MIN_DRAWN_VERSION],
  ])('%s', (_name, style, version) => {
    expect(minimumDrawnVersion(style)).toBe(version);
  });

  it('keeps the share of codewords a logo hides within the limit of what its level restores', () => {
    for (const imageSize of [0.1, 0.2, 0.3, 0.35, 0.38, 0.4, 0.42]) {
      const style: QrStyle = { image: LOGO, imageOptions: { imageSize } };
      const version = minimumDrawnVersion(style);
      expect(imageSize ** 2 / dataModuleShare(version)).toBeLessThanOrEqual(RECOVERABLE_CODEWORD_SHARE.H * LOGO_CODEWORD_LIMIT + 1e-9);
    }
  });

  it('is the version a short text is drawn at', () => {
    expect(buildQrMatrix('hi', 'H', minimumDrawnVersion({ image: LOGO })).version).toBe(3);
  });
});
