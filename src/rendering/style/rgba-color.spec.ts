import { compositeOver, contrastRatio, HEX_COLOR, parseHexColor, relativeLuminance, WHITE } from './rgba-color';

describe('rgba colour arithmetic', () => {
  test.each([
    ['#abc', { r: 0xaa, g: 0xbb, b: 0xcc, a: 1 }],
    ['#A1B2C3', { r: 0xa1, g: 0xb2, b: 0xc3, a: 1 }],
    ['#10203040', { r: 0x10, g: 0x20, b: 0x30, a: 0x40 / 255 }],
  ])('parses %s', (hex, color) => {
    expect(parseHexColor(hex)).toEqual(color);
  });

  test.each(['#abc', '#ABCDEF', '#abcdef01'])('%s is a hex colour', (hex) => expect(HEX_COLOR.test(hex)).toBe(true));
  test.each(['abc', '#abcd', '#abcdef0', '#ggg', '#abc\n', 'x#abc'])('%j is not', (hex) => expect(HEX_COLOR.test(hex)).toBe(false));

  test('relative luminance follows WCAG 2 (sRGB linearisation, Rec. 709 weights)', () => {
    expect(relativeLuminance(WHITE)).toBeCloseTo(1, 10);
    expect(relativeLuminance(parseHexColor('#000'))).toBe(0);
    expect(relativeLuminance(parseHexColor('#f00'))).toBeCloseTo(0.2126, 4);
    expect(relativeLuminance(parseHexColor('#808080'))).toBeCloseTo(0.2159, 4);
  });

  test('contrast ratio is symmetric and spans 1..21', () => {
    const black = parseHexColor('#000');
    expect(contrastRatio(black, WHITE)).toBeCloseTo(21, 10);
    expect(contrastRatio(WHITE, black)).toBeCloseTo(21, 10);
    expect(contrastRatio(WHITE, WHITE)).toBe(1);
    expect(contrastRatio(parseHexColor('#777'), WHITE)).toBeCloseTo(4.48, 2);
  });

  test('compositing blends each channel by the top colour alpha', () => {
    expect(compositeOver(parseHexColor('#ff000080'), parseHexColor('#0000ff'))).toEqual({
      r: 255 * (0x80 / 255),
      g: 0,
      b: 255 * (1 - 0x80 / 255),
      a: 1,
    });
    expect(compositeOver(parseHexColor('#123456'), WHITE)).toEqual(parseHexColor('#123456'));
    expect(compositeOver(parseHexColor('#12345600'), WHITE)).toEqual(WHITE);
  });
});
