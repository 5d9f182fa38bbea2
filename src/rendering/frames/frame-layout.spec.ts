import { drawQrCode } from '../render-qr-svg';
import { FRAME_TYPES, type FrameType, type QrStyle } from '../style/qr-style';
import { checkStyle } from '../style/check-style';
import { missingCharacters } from './frame-fonts';
import { resolveFrame } from './frame-layout';

const TEXT = 'https://example.com/r/Xy7Kq2Lm';
const framed = FRAME_TYPES.filter((type): type is Exclude<FrameType, 'none'> => type !== 'none');

/** Distance from the code's first dark module to the nearest frame colour, in modules. */
function lightAroundCode(style: QrStyle, size: number): { modules: number; frameOutside: boolean } {
  const drawing = drawQrCode({ text: TEXT, style, size });
  const frame = drawing.frame!;
  const { layout } = drawing;
  const codeLeft = frame.codeX + layout.x;
  const codeTop = frame.codeY + layout.y;
  return {
    modules: Math.min(codeLeft, codeTop, frame.width - (codeLeft + layout.moduleCount * layout.moduleSize)) / layout.moduleSize,
    frameOutside: frame.codeX >= 0 && frame.codeY >= 0 && frame.codeX + size <= frame.width && frame.codeY + size <= frame.height,
  };
}

describe('frame layout', () => {
  it.each(framed)('%s: the code canvas is set whole inside the frame, with four light modules around the code even at margin 0', (type) => {
    for (const style of [{ frameOptions: { type } }, { margin: 0, frameOptions: { type } }] satisfies QrStyle[]) {
      const measured = lightAroundCode(style, 400);
      expect(measured.frameOutside).toBe(true);
      expect(measured.modules).toBeGreaterThanOrEqual(4);
    }
  });

  it.each(framed)('%s: the frame adds to the image, the text outline lies inside it', (type) => {
    const drawing = drawQrCode({ text: TEXT, style: { frameOptions: { type, text: 'Σαρώστε με — Сканируй меня' } }, size: 300 });
    expect(drawing.height).toBeGreaterThan(300);
    const [text] = drawing.frame!.above;
    const numbers = text.d.match(/-?\d+(\.\d+)?/g)!.map(Number);
    expect(Math.min(...numbers)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...numbers)).toBeLessThanOrEqual(Math.max(drawing.width, drawing.height));
    expect(drawing.frame!.textCapHeight).toBeGreaterThan(7);
  });

  it('draws nothing without a frame or with type none', () => {
    expect(drawQrCode({ text: TEXT, style: {}, size: 300 }).frame).toBeNull();
    expect(resolveFrame({ type: 'none', text: 'x' })).toBeNull();
    expect(resolveFrame({ type: 'box', color: '#123456' })).toMatchObject({ text: 'SCAN ME', textColor: '#123456', font: 'noto-sans' });
  });

  it('writes no text element: the SVG holds the text as a path', () => {
    const svg = drawQrCode({ text: TEXT, style: { frameOptions: { type: 'banner-top' } }, size: 300 });
    expect(JSON.stringify(svg.parts)).not.toContain('<text');
  });
});

describe('frame fonts and checks', () => {
  it.each(['noto-sans', 'roboto'] as const)('%s draws Latin, Greek, Cyrillic, digits and punctuation; not CJK, emoji or controls', (font) => {
    expect(missingCharacters(font, 'Scan me! 0-9 «Ελληνικά» Кириллица ÀÉÎÕÜ ß ł & @ €')).toEqual([]);
    expect(missingCharacters(font, 'スキャン 😀 a\nb')).toEqual(['ス', 'キ', 'ャ', 'ン', '😀', '\n']);
  });

  it.each<[QrStyle, string[]]>([
    [{ frameOptions: { type: 'banner-bottom', text: '扫一扫' } }, ['style.frameOptions.text']],
    [{ frameOptions: { type: 'banner-bottom', text: '' } }, ['style.frameOptions.text']],
    [{ frameOptions: { type: 'banner-bottom', text: 'x'.repeat(31) } }, ['style.frameOptions.text']],
    [{ frameOptions: { type: 'banner-bottom', color: '#ffeb3b' } }, ['style.frameOptions.color']],
    [{ frameOptions: { type: 'bubble', color: '#000000', textColor: '#333333' } }, ['style.frameOptions.textColor']],
    [{ frameOptions: { type: 'box', textColor: '#dddddd' } }, ['style.frameOptions.textColor']],
    [{ backgroundOptions: { color: '#e0e0e0' }, frameOptions: { type: 'box', color: '#9e9e9e' } }, ['style.frameOptions.color']],
    [{ frameOptions: { type: 'box', font: 'comic-sans' } }, ['style.frameOptions.font']],
    [{ frameOptions: { type: 'ribbon' as 'box' } }, ['style.frameOptions.type']],
  ])('refuses %j naming %j', (style, fields) => {
    const check = checkStyle(style);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.errors.map((error) => error.field)).toEqual(fields);
  });

  it.each<QrStyle>([
    { frameOptions: { type: 'banner-bottom', text: 'Scan for the full menu & more' } },
    { frameOptions: { type: 'bubble', color: '#ffeb3b', textColor: '#000000', font: 'roboto' } },
    { backgroundOptions: { color: 'transparent' }, frameOptions: { type: 'box', text: 'Сканируй меня' } },
    { frameOptions: { type: 'none' } },
  ])('accepts %j', (style) => {
    expect(checkStyle(style).ok).toBe(true);
  });
});
