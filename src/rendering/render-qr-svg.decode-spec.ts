/**
 * Every rendered image must decode back to exactly the encoded content (docs/styling-and-scannability.md#which-sizes-decode): the SVG is
 * rasterised with resvg and read with jsQR (test/support/decode-svg.ts).
 */
import { decodeSvg } from '../../test/support/decode-svg';
import { CORNER_SQUARE_TYPES, DOT_TYPES, type DotType, type Gradient, type QrStyle } from './style/qr-style';
import { checkeredLogo } from './__fixtures__/png-data-uri';
import { buildQrMatrix } from './qr-matrix';
import { renderQrSvg } from './render-qr-svg';

const TEXTS: Record<string, string> = {
  url: 'https://example.com/path/to/page?query=1&other=two#fragment',
  wifi: 'WIFI:T:WPA;S:My Home Network;P:p@ss\\;word;;',
  vcard: 'BEGIN:VCARD\nVERSION:3.0\nN:Doe;Jane;;;\nFN:Jane Doe\nORG:Example Ltd\nTEL;TYPE=CELL:+1-555-0100\nEMAIL:jane@example.com\nEND:VCARD',
  accents: 'Café crème, brûlée et déjà-vu — é',
  emoji: 'Hello 😀 🎉 👍🏽 world',
  cjk: '日本語のテキスト、中文，한국어',
  numeric: '00123456789012345678',
  alphanumeric: 'HELLO WORLD $%*+-./:',
  long: 'https://example.com/' + 'abcdefghij'.repeat(17),
};

describe('decoding rendered codes', () => {
  it('uses texts up to version 10 and beyond', () => {
    expect(buildQrMatrix(TEXTS.long, 'M').version).toBeGreaterThanOrEqual(10);
  });

  const plainStyles: Record<string, QrStyle> = {
    plain: {},
    colours: { dotsOptions: { color: '#1a237e' }, backgroundOptions: { color: '#fff8e1' } },
  };

  describe.each([100, 300, 2000])('at size %i, rasterised at that size', (size) => {
    describe.each(Object.entries(plainStyles))('with the %s style', (_name, style) => {
      it.each(Object.entries(TEXTS))('decodes the %s text exactly', (_kind, text) => {
        expect(decodeSvg(renderQrSvg({ text, style, size }))).toBe(text);
      });
    });
  });

  it.each(Object.entries(TEXTS))('decodes the %s text on a transparent background', (_kind, text) => {
    expect(decodeSvg(renderQrSvg({ text, style: { backgroundOptions: { color: 'transparent' } }, size: 300 }))).toBe(text);
  });

  it.each<[string, QrStyle]>([
    ['no quiet zone', { margin: 0 }],
    ['a wide margin', { margin: 60 }],
    ['unrounded module sizes', { dotsOptions: { roundSize: false, type: 'rounded' } }],
    ['a logo over the modules', { image: checkeredLogo(), imageOptions: { hideBackgroundDots: false } }],
    ['a large logo with a margin', { image: checkeredLogo(), imageOptions: { imageSize: 0.6, margin: 6 } }],
    ['a wide logo', { image: checkeredLogo(40, 12) }],
    ['a logo at level M', { image: checkeredLogo(), qrOptions: { errorCorrectionLevel: 'M' } }],
    [
      'a rounded gradient background',
      {
        backgroundOptions: {
          round: 1,
          gradient: {
            type: 'radial',
            colorStops: [
              { offset: 0, color: '#ffffff' },
              { offset: 1, color: '#dddddd' },
            ],
          },
        },
      },
    ],
    ['light-on-dark colours', { dotsOptions: { color: '#ffffff' }, backgroundOptions: { color: '#102030' } }],
  ])('decodes with %s', (_name, style) => {
    expect(decodeSvg(renderQrSvg({ text: TEXTS.url, style, size: 400 }))).toBe(TEXTS.url);
  });
});

/**
 * Every dots type × corner-square type × paint × logo × shape. jsQR reads one pixel per module and
 * never blurs, so some images it only reads at another raster scale (see decode-svg.ts): a 100 px
 * image is also looked at as a 2×/3× screen shows it, a 1000 px one as a camera sees it from some
 * distance (150–600 px wide). The order puts the scale that reads most images first.
 */
describe('decoding every style combination', () => {
  const text = 'https://example.com/products/42?ref=qr';
  const logo = checkeredLogo();
  const gradient = (type: Gradient['type']): Gradient => ({
    type,
    rotation: 45,
    colorStops: [
      { offset: 0, color: '#1a237e' },
      { offset: 1, color: '#b71c1c' },
    ],
  });
  const paints: Record<string, Pick<QrStyle['dotsOptions'] & object, 'color' | 'gradient'>> = {
    solid: { color: '#222244' },
    linear: { gradient: gradient('linear') },
    radial: { gradient: gradient('radial') },
  };
  const cornerSquareTypes = [...new Set(CORNER_SQUARE_TYPES)];
  const rasterWidths: Record<number, number[]> = {
    100: [100, 300, 200, 250, 350, 400],
    1000: [300, 250, 400, 200, 350, 500, 150, 450, 600],
  };

  describe.each([100, 1000])('at size %i', (size) => {
    const cases = DOT_TYPES.flatMap((dotsType) => cornerSquareTypes.map((cornerType) => [dotsType, cornerType] as const));
    it.each(cases)(
      '%s dots with %s corner squares decode in every paint, with and without logo, square and circle',
      (dotsType: DotType, cornerType) => {
        const failures: string[] = [];
        for (const [paintName, paint] of Object.entries(paints)) {
          for (const withLogo of [false, true]) {
            for (const shape of ['square', 'circle'] as const) {
              const style: QrStyle = {
                dotsOptions: { type: dotsType, ...paint },
                cornersSquareOptions: { type: cornerType },
                shape,
                ...(withLogo ? { image: logo, imageOptions: { hideBackgroundDots: true } } : {}),
              };
              // Dark on light: trying jsQR's inverted reading as well would only double the misses' cost.
              const decoded = decodeSvg(renderQrSvg({ text, style, size }), { widths: rasterWidths[size], inversionAttempts: 'dontInvert' });
              if (decoded !== text) failures.push(`${paintName} ${shape}${withLogo ? ' with logo' : ''}`);
            }
          }
        }
        expect(failures).toEqual([]);
      },
    );
  });
});
