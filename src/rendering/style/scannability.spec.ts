import { checkStyle, type StyleCheck } from './check-style';
import { compositeOver, contrastRatio, parseHexColor, WHITE } from './rgba-color';
import { LOGO_SAFETY_FACTOR, MIN_CONTRAST_RATIO, RECOVERABLE_CODEWORD_SHARE } from './scannability';

const PNG_LOGO = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function errorsOf(result: StyleCheck) {
  if (result.ok) throw new Error(`expected a rejection, got ${JSON.stringify(result.style)}`);
  return result.errors;
}

function stops(...colors: string[]) {
  return colors.map((color, index) => ({ offset: colors.length === 1 ? 0 : index / (colors.length - 1), color }));
}

describe('contrast guard', () => {
  test.each([
    ['black on white', { dotsOptions: { color: '#000000' }, backgroundOptions: { color: '#ffffff' } }],
    ['the defaults', {}],
    ['dark blue on pale yellow', { dotsOptions: { color: '#0d47a1' }, backgroundOptions: { color: '#fffde7' } }],
    ['black on a transparent background', { dotsOptions: { color: '#000' }, backgroundOptions: { color: 'transparent' } }],
    ['a dark gradient on white', { dotsOptions: { gradient: { colorStops: stops('#000000', '#1a237e', '#4a148c') } } }],
    ['black on a light gradient', { backgroundOptions: { gradient: { colorStops: stops('#ffffff', '#e3f2fd') } } }],
    ['a fully transparent black background (judged on white)', { backgroundOptions: { color: '#00000000' } }],
    ['80% black dots on white', { dotsOptions: { color: '#000000cc' } }],
    ['corners inheriting dark dots', { dotsOptions: { color: '#222' }, cornersSquareOptions: { type: 'dot' }, cornersDotOptions: { type: 'dot' } }],
    ['#949494 on white, just above 3:1', { dotsOptions: { color: '#949494' } }],
  ])('%s is accepted', (_, style) => {
    expect(checkStyle(style)).toEqual({ ok: true, style });
  });

  test('the threshold sits between #949494 and #959595 on white', () => {
    expect(contrastRatio(parseHexColor('#949494'), WHITE)).toBeGreaterThanOrEqual(MIN_CONTRAST_RATIO);
    expect(contrastRatio(parseHexColor('#959595'), WHITE)).toBeLessThan(MIN_CONTRAST_RATIO);
    expect(errorsOf(checkStyle({ dotsOptions: { color: '#959595' } }))).toEqual([
      {
        field: 'style.dotsOptions.color',
        message: 'style.dotsOptions.color: contrast 2.9:1 against the background #ffffff is below 3:1; scanners may fail',
      },
    ]);
  });

  test('#777 on #888 is refused naming the dots colour', () => {
    expect(errorsOf(checkStyle({ dotsOptions: { color: '#777' }, backgroundOptions: { color: '#888' } }))).toEqual([
      {
        field: 'style.dotsOptions.color',
        message: 'style.dotsOptions.color: contrast 1.2:1 against the background #888 is below 3:1; scanners may fail',
      },
    ]);
  });

  test('a gradient with one light stop is refused naming that stop only', () => {
    const style = { dotsOptions: { gradient: { colorStops: stops('#000000', '#ffeb3b', '#1a237e') } } };
    expect(errorsOf(checkStyle(style))).toEqual([
      {
        field: 'style.dotsOptions.gradient.colorStops[1].color',
        message: expect.stringMatching(
          /^style\.dotsOptions\.gradient\.colorStops\[1\]\.color: contrast 1\.\d:1 against the background #ffffff is below 3:1; scanners may fail$/,
        ),
      },
    ]);
  });

  test('a background gradient with one dark stop is refused naming that stop', () => {
    const style = { backgroundOptions: { gradient: { colorStops: stops('#ffffff', '#ffffff', '#404040') } } };
    expect(errorsOf(checkStyle(style))).toEqual([
      {
        field: 'style.backgroundOptions.gradient.colorStops[2].color',
        message: expect.stringMatching(/against the default dots color #000000 is below 3:1/),
      },
    ]);
  });

  test('a foreground stop is judged against every background stop', () => {
    const style = {
      dotsOptions: { gradient: { colorStops: stops('#000000', '#455a64') } },
      backgroundOptions: { gradient: { colorStops: stops('#ffffff', '#78909c') } },
    };
    expect(errorsOf(checkStyle(style))).toEqual([
      {
        field: 'style.dotsOptions.gradient.colorStops[1].color',
        message: expect.stringMatching(/against the background #78909c is below 3:1/),
      },
    ]);
  });

  test('a transparent background is judged on white', () => {
    expect(errorsOf(checkStyle({ dotsOptions: { color: '#dddddd' }, backgroundOptions: { color: 'transparent' } }))).toEqual([
      {
        field: 'style.dotsOptions.color',
        message: expect.stringMatching(/against the transparent background \(judged on white\) is below 3:1/),
      },
    ]);
  });

  test('a translucent foreground is composited over the background before measuring', () => {
    expect(compositeOver(parseHexColor('#00000080'), WHITE).r).toBeCloseTo(127, 0);
    expect(errorsOf(checkStyle({ dotsOptions: { color: '#00000030' } }))).toEqual([
      { field: 'style.dotsOptions.color', message: expect.stringMatching(/below 3:1/) },
    ]);
  });

  test('a translucent background is composited over white', () => {
    expect(checkStyle({ backgroundOptions: { color: '#00000010' } }).ok).toBe(true);
    expect(errorsOf(checkStyle({ backgroundOptions: { color: '#000000c0' } }))).toEqual([
      { field: 'style.backgroundOptions.color', message: expect.stringMatching(/below 3:1/) },
    ]);
  });

  test('light on dark (inverted) is refused even with high contrast', () => {
    expect(errorsOf(checkStyle({ dotsOptions: { color: '#ffffff' }, backgroundOptions: { color: '#000000' } }))).toEqual([
      {
        field: 'style.dotsOptions.color',
        message: 'style.dotsOptions.color is lighter than the background #000000; light-on-dark (inverted) codes are not read by many scanners',
      },
    ]);
  });

  test('a dark background under the default dots is refused naming the background', () => {
    expect(errorsOf(checkStyle({ backgroundOptions: { color: '#1b1b1b' } }))).toEqual([
      {
        field: 'style.backgroundOptions.color',
        message: expect.stringMatching(/^style\.backgroundOptions\.color: contrast 1\.\d:1 against the default dots color #000000 is below 3:1/),
      },
    ]);
  });

  test('corner colours are judged too, each naming its own field', () => {
    const style = {
      cornersSquareOptions: { color: '#eeeeee' },
      cornersDotOptions: { gradient: { colorStops: stops('#000000', '#fff59d') } },
    };
    expect(errorsOf(checkStyle(style))).toEqual([
      { field: 'style.cornersSquareOptions.color', message: expect.stringMatching(/below 3:1/) },
      { field: 'style.cornersDotOptions.gradient.colorStops[1].color', message: expect.stringMatching(/below 3:1/) },
    ]);
  });

  test('a gradient wins over a colour set beside it, as in qr-code-styling', () => {
    expect(checkStyle({ dotsOptions: { color: '#ffffff', gradient: { colorStops: stops('#000000') } } }).ok).toBe(true);
    expect(errorsOf(checkStyle({ dotsOptions: { color: '#000000', gradient: { colorStops: stops('#ffffff') } } }))).toEqual([
      { field: 'style.dotsOptions.gradient.colorStops[0].color', message: expect.stringMatching(/below 3:1/) },
    ]);
  });

  test('shape errors come first: the guard only judges a well-formed style', () => {
    expect(errorsOf(checkStyle({ dotsOptions: { color: '#eeeeee' }, margin: -1 }))).toEqual([
      { field: 'style.margin', message: expect.stringMatching(/integer/) },
    ]);
  });
});

describe('logo coverage guard', () => {
  test('the safe share per level is the recoverable share times the safety factor', () => {
    expect(LOGO_SAFETY_FACTOR).toBe(0.6);
    expect(RECOVERABLE_CODEWORD_SHARE).toEqual({ L: 0.07, M: 0.15, Q: 0.25, H: 0.3 });
  });

  test('a logo with no level and no size gets H and the default size, which fits', () => {
    expect(checkStyle({ image: PNG_LOGO })).toEqual({ ok: true, style: { image: PNG_LOGO } });
  });

  // Largest accepted and smallest refused imageSize per level: (size)² against share × 0.6.
  test.each([
    ['L', 0.2, 0.21],
    ['M', 0.3, 0.31],
    ['Q', 0.38, 0.39],
    ['H', 0.42, 0.43],
  ])('level %s accepts imageSize %s and refuses %s', (level, fits, tooBig) => {
    const styleOf = (imageSize: number) => ({
      image: PNG_LOGO,
      imageOptions: { imageSize },
      qrOptions: { errorCorrectionLevel: level },
    });
    expect(checkStyle(styleOf(fits)).ok).toBe(true);
    expect(errorsOf(checkStyle(styleOf(tooBig)))).toEqual([
      {
        field: 'style.imageOptions.imageSize',
        message: expect.stringMatching(
          new RegExp(
            `^style\\.imageOptions\\.imageSize: the logo covers [\\d.]+% of the code ` +
              `but error correction level ${level} can safely recover only`,
          ),
        ),
      },
    ]);
  });

  test('an explicit low level with the default logo size names the level and says why', () => {
    expect(errorsOf(checkStyle({ image: PNG_LOGO, qrOptions: { errorCorrectionLevel: 'L' } }))).toEqual([
      {
        field: 'style.qrOptions.errorCorrectionLevel',
        message:
          'style.qrOptions.errorCorrectionLevel: the logo covers 16% of the code ' +
          'but error correction level L can safely recover only 4.2%; ' +
          'use a smaller logo or error correction level H',
      },
    ]);
  });

  test('the logo margin counts towards the covered area', () => {
    const withMargin = (margin: number, imageSize?: number) => ({ image: PNG_LOGO, imageOptions: { margin, imageSize } });
    expect(checkStyle(withMargin(3)).ok).toBe(true);
    expect(errorsOf(checkStyle(withMargin(10)))).toEqual([
      {
        field: 'style.imageOptions.margin',
        message: expect.stringMatching(
          /^style\.imageOptions\.margin: the logo covers 21\.8% .* level H can safely recover only 18%; use a smaller logo$/,
        ),
      },
    ]);
    expect(errorsOf(checkStyle(withMargin(10, 0.4)))[0].field).toBe('style.imageOptions.imageSize');
  });

  test('without a logo, logo options are not judged', () => {
    expect(checkStyle({ imageOptions: { imageSize: 1 }, qrOptions: { errorCorrectionLevel: 'L' } }).ok).toBe(true);
  });

  test('contrast and logo problems are reported together', () => {
    const style = { dotsOptions: { color: '#cccccc' }, image: PNG_LOGO, imageOptions: { imageSize: 0.9 } };
    expect(errorsOf(checkStyle(style)).map((error) => error.field)).toEqual(['style.dotsOptions.color', 'style.imageOptions.imageSize']);
  });
});

describe('finder patterns drawn as loose dots', () => {
  it.each([
    { dotsOptions: { type: 'rounded' }, cornersDotOptions: { type: 'dots' } },
    { dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'extra-rounded' }, cornersDotOptions: { type: 'dots' } },
  ])('rejects a finder centre set to dots: %j', (style) => {
    const check = checkStyle(style);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.errors).toEqual([
        { field: 'style.cornersDotOptions.type', message: expect.stringMatching(/nine loose dots .*use dot or square/) },
      ]);
    }
  });

  it('rejects a ring set to dots around a round centre, naming the ring', () => {
    const check = checkStyle({ cornersSquareOptions: { type: 'dots' }, cornersDotOptions: { type: 'dot' } });
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.errors).toEqual([
        { field: 'style.cornersSquareOptions.type', message: expect.stringMatching(/loose dots around a round centre/) },
      ]);
      // Well-formed, so the style check can still measure it.
      expect(check.refusedStyle).toEqual({ cornersSquareOptions: { type: 'dots' }, cornersDotOptions: { type: 'dot' } });
    }
  });

  it.each([
    // Unset corners get solid figures (finder-defaults.spec.ts): the spec's own `dots` scans.
    { dotsOptions: { type: 'dots' } },
    { dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'square' } },
    { dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'extra-rounded' } },
    // A ring of loose dots around a solid centre decodes.
    { dotsOptions: { type: 'rounded' }, cornersSquareOptions: { type: 'dots' } },
    { dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'dots' }, cornersDotOptions: { type: 'square' } },
    { dotsOptions: { type: 'classy' } },
  ])('accepts %j', (style) => {
    expect(checkStyle(style).ok).toBe(true);
  });
});
