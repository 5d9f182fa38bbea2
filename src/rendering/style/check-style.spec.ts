import { checkStyle, MAX_STYLE_ERRORS, type StyleCheck } from './check-style';
import { CORNER_DOT_TYPES, CORNER_SQUARE_TYPES, DOT_TYPES, ERROR_CORRECTION_LEVELS, SHAPES } from './qr-style';

/** A real 1×1 PNG. */
const PNG_LOGO = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const DARK_GRADIENT = {
  type: 'radial',
  rotation: 45,
  colorStops: [
    { offset: 0, color: '#000' },
    { offset: 1, color: '#1a237e' },
  ],
};
const LIGHT_GRADIENT = {
  colorStops: [
    { offset: 0, color: '#ffffff' },
    { offset: 1, color: '#eeeeee' },
  ],
};

function errorsOf(result: StyleCheck) {
  if (result.ok) throw new Error(`expected a rejection, got ${JSON.stringify(result.style)}`);
  return result.errors;
}

function fieldsOf(result: StyleCheck): string[] {
  return errorsOf(result).map((error) => error.field);
}

/**
 * Sets `value` at a dotted path inside a fresh object, e.g. dotsOptions.gradient.rotation. A
 * gradient on the way gets one valid stop, so that only `value` is judged.
 */
function styleWith(path: string, value: unknown): Record<string, unknown> {
  const keys = path.split('.');
  const root: Record<string, unknown> = {};
  let node = root;
  for (const key of keys.slice(0, -1)) {
    node[key] = key === 'gradient' ? { colorStops: [{ offset: 0, color: '#000' }] } : {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]] = value;
  return root;
}

describe('checkStyle: accepted values', () => {
  const accepted: Array<[string, unknown]> = [
    ...DOT_TYPES.map((type): [string, unknown] => ['dotsOptions.type', type]),
    ['dotsOptions.color', '#000'],
    ['dotsOptions.color', '#1A2b3C'],
    ['dotsOptions.color', '#000000cc'],
    ['dotsOptions.gradient', DARK_GRADIENT],
    ['dotsOptions.roundSize', true],
    ['dotsOptions.roundSize', false],
    ...CORNER_SQUARE_TYPES.map((type): [string, unknown] => ['cornersSquareOptions.type', type]),
    ['cornersSquareOptions.color', '#0d47a1'],
    ['cornersSquareOptions.gradient', DARK_GRADIENT],
    // A finder centre of loose dots is refused by the scannability guard (scannability.spec.ts).
    ...CORNER_DOT_TYPES.filter((type) => type !== 'dots').map((type): [string, unknown] => ['cornersDotOptions.type', type]),
    ['cornersDotOptions.color', '#b71c1c'],
    ['cornersDotOptions.gradient', DARK_GRADIENT],
    ['backgroundOptions.color', '#fff'],
    ['backgroundOptions.color', '#FFFDE7'],
    ['backgroundOptions.color', 'transparent'],
    ['backgroundOptions.gradient', LIGHT_GRADIENT],
    ['backgroundOptions.round', 0],
    ['backgroundOptions.round', 1],
    ['backgroundOptions.gradient', { ...LIGHT_GRADIENT, type: 'linear', rotation: -360 }],
    ['backgroundOptions.gradient', { ...LIGHT_GRADIENT, rotation: 360 }],
    ['dotsOptions.gradient', { rotation: 12.5, colorStops: [{ offset: 0.5, color: '#000' }] }],
    ['dotsOptions.gradient', { colorStops: Array.from({ length: 10 }, (_, index) => ({ offset: index / 9, color: '#000' })) }],
    ['image', PNG_LOGO],
    ['imageOptions.hideBackgroundDots', true],
    ['imageOptions.imageSize', 0.1],
    ['imageOptions.imageSize', 1],
    ['imageOptions.margin', 0],
    ['imageOptions.margin', 100],
    ...ERROR_CORRECTION_LEVELS.map((level): [string, unknown] => ['qrOptions.errorCorrectionLevel', level]),
    ['margin', 0],
    ['margin', 100],
    ...SHAPES.map((shape): [string, unknown] => ['shape', shape]),
  ];

  test.each(accepted)('%s = %j', (path, value) => {
    const style = styleWith(path, value);
    expect(checkStyle(style)).toEqual({ ok: true, style });
  });

  test('an empty style is the plain code', () => {
    expect(checkStyle({})).toEqual({ ok: true, style: {} });
  });

  test('a full style comes back whole', () => {
    const style = {
      dotsOptions: { type: 'rounded', color: '#222222', gradient: DARK_GRADIENT, roundSize: true },
      cornersSquareOptions: { type: 'extra-rounded', color: '#0d47a1' },
      cornersDotOptions: { type: 'dot', gradient: DARK_GRADIENT },
      backgroundOptions: { color: '#ffffff', round: 0.2 },
      image: PNG_LOGO,
      imageOptions: { hideBackgroundDots: true, imageSize: 0.3, margin: 2 },
      qrOptions: { errorCorrectionLevel: 'H' },
      margin: 10,
      shape: 'circle',
    };
    expect(checkStyle(style)).toEqual({ ok: true, style });
  });

  test('the result keeps only the keys given, drops undefined ones, and is a new object', () => {
    const raw = { dotsOptions: { color: '#000', type: undefined }, shape: undefined };
    const result = checkStyle(raw);
    expect(result).toStrictEqual({ ok: true, style: { dotsOptions: { color: '#000' } } });
    expect(result.ok && result.style).not.toBe(raw);
    expect(result.ok && Object.getPrototypeOf(result.style)).toBe(Object.prototype);
  });
});

describe('checkStyle: rejected values name the field', () => {
  const rejected: Array<[string, unknown, string, RegExp]> = [
    ['dotsOptions', 'rounded', 'style.dotsOptions', /must be an object/],
    ['dotsOptions', [], 'style.dotsOptions', /must be an object/],
    ['dotsOptions', null, 'style.dotsOptions', /must be an object/],
    ['dotsOptions.type', 'triangle', 'style.dotsOptions.type', /must be one of: square, dots, rounded/],
    ['dotsOptions.type', 3, 'style.dotsOptions.type', /must be one of/],
    ['dotsOptions.type', 'Square', 'style.dotsOptions.type', /must be one of/],
    ['dotsOptions.color', 'red', 'style.dotsOptions.color', /must be a hex color #rgb, #rrggbb or #rrggbbaa$/],
    ['dotsOptions.color', '#12', 'style.dotsOptions.color', /hex color/],
    ['dotsOptions.color', '#1234', 'style.dotsOptions.color', /hex color/],
    ['dotsOptions.color', '#12345', 'style.dotsOptions.color', /hex color/],
    ['dotsOptions.color', '#12345g', 'style.dotsOptions.color', /hex color/],
    ['dotsOptions.color', 'transparent', 'style.dotsOptions.color', /hex color/],
    ['dotsOptions.color', 0x000000, 'style.dotsOptions.color', /hex color/],
    ['dotsOptions.roundSize', 'true', 'style.dotsOptions.roundSize', /must be true or false/],
    ['dotsOptions.roundSize', 1, 'style.dotsOptions.roundSize', /must be true or false/],
    ['dotsOptions.gradient', 'linear', 'style.dotsOptions.gradient', /must be an object/],
    ['dotsOptions.gradient', {}, 'style.dotsOptions.gradient.colorStops', /is required/],
    ['dotsOptions.gradient.type', 'conic', 'style.dotsOptions.gradient.type', /must be one of: linear, radial$/],
    ['dotsOptions.gradient.rotation', '45', 'style.dotsOptions.gradient.rotation', /must be a number from -360 to 360/],
    ['dotsOptions.gradient.rotation', 361, 'style.dotsOptions.gradient.rotation', /from -360 to 360/],
    ['dotsOptions.gradient.rotation', -361, 'style.dotsOptions.gradient.rotation', /from -360 to 360/],
    ['dotsOptions.gradient.rotation', Number.NaN, 'style.dotsOptions.gradient.rotation', /number/],
    ['dotsOptions.gradient.rotation', Infinity, 'style.dotsOptions.gradient.rotation', /number/],
    ['dotsOptions.gradient.colorStops', [], 'style.dotsOptions.gradient.colorStops', /must have 1 to 10 items/],
    ['dotsOptions.gradient.colorStops', { 0: {} }, 'style.dotsOptions.gradient.colorStops', /must be an array/],
    ['dotsOptions.gradient.colorStops', ['#000'], 'style.dotsOptions.gradient.colorStops[0]', /must be an object/],
    [
      'dotsOptions.gradient.colorStops',
      Array.from({ length: 11 }, () => ({ offset: 0, color: '#000' })),
      'style.dotsOptions.gradient.colorStops',
      /must have 1 to 10 items/,
    ],
    ['dotsOptions.gradient.colorStops', [{ color: '#000' }], 'style.dotsOptions.gradient.colorStops[0].offset', /is required/],
    ['dotsOptions.gradient.colorStops', [{ offset: 0 }], 'style.dotsOptions.gradient.colorStops[0].color', /is required/],
    [
      'dotsOptions.gradient.colorStops',
      [
        { offset: 0, color: '#000' },
        { offset: 1.5, color: '#000' },
      ],
      'style.dotsOptions.gradient.colorStops[1].offset',
      /must be a number from 0 to 1/,
    ],
    [
      'dotsOptions.gradient.colorStops',
      [{ offset: '0', color: '#000' }],
      'style.dotsOptions.gradient.colorStops[0].offset',
      /must be a number from 0 to 1/,
    ],
    [
      'dotsOptions.gradient.colorStops',
      [
        { offset: 0, color: '#000' },
        { offset: 1, color: 'blue' },
      ],
      'style.dotsOptions.gradient.colorStops[1].color',
      /hex color/,
    ],
    ['cornersSquareOptions', true, 'style.cornersSquareOptions', /must be an object/],
    ['cornersSquareOptions.type', 'circle', 'style.cornersSquareOptions.type', /must be one of: square, dot, extra-rounded, dots/],
    ['cornersSquareOptions.color', '#00', 'style.cornersSquareOptions.color', /hex color/],
    ['cornersSquareOptions.gradient.colorStops', 'x', 'style.cornersSquareOptions.gradient.colorStops', /must be an array/],
    ['cornersDotOptions', 'dot', 'style.cornersDotOptions', /must be an object/],
    ['cornersDotOptions.type', 'star', 'style.cornersDotOptions.type', /must be one of: square, dot, dots/],
    ['cornersDotOptions.color', 'black', 'style.cornersDotOptions.color', /hex color/],
    ['cornersDotOptions.gradient.type', 'linear ', 'style.cornersDotOptions.gradient.type', /must be one of/],
    ['backgroundOptions', 7, 'style.backgroundOptions', /must be an object/],
    ['backgroundOptions.color', 'none', 'style.backgroundOptions.color', /hex color .* or "transparent"$/],
    ['backgroundOptions.color', 'Transparent', 'style.backgroundOptions.color', /or "transparent"/],
    ['backgroundOptions.gradient.rotation', true, 'style.backgroundOptions.gradient.rotation', /number/],
    ['backgroundOptions.round', 1.5, 'style.backgroundOptions.round', /must be a number from 0 to 1/],
    ['backgroundOptions.round', -0.1, 'style.backgroundOptions.round', /from 0 to 1/],
    ['backgroundOptions.round', '0', 'style.backgroundOptions.round', /from 0 to 1/],
    ['image', 42, 'style.image', /must be a data: URI of a PNG, JPEG or WebP image/],
    ['image', '', 'style.image', /must be a data: URI/],
    ['imageOptions', 'big', 'style.imageOptions', /must be an object/],
    ['imageOptions.hideBackgroundDots', 'yes', 'style.imageOptions.hideBackgroundDots', /true or false/],
    ['imageOptions.imageSize', 0, 'style.imageOptions.imageSize', /must be a number greater than 0 and at most 1/],
    ['imageOptions.imageSize', 1.2, 'style.imageOptions.imageSize', /greater than 0 and at most 1/],
    ['imageOptions.imageSize', '0.3', 'style.imageOptions.imageSize', /greater than 0 and at most 1/],
    ['imageOptions.margin', 1.5, 'style.imageOptions.margin', /must be an integer from 0 to 100/],
    ['imageOptions.margin', -1, 'style.imageOptions.margin', /integer from 0 to 100/],
    ['imageOptions.margin', 101, 'style.imageOptions.margin', /integer from 0 to 100/],
    ['qrOptions', 'H', 'style.qrOptions', /must be an object/],
    ['qrOptions.errorCorrectionLevel', 'X', 'style.qrOptions.errorCorrectionLevel', /must be one of: L, M, Q, H$/],
    ['qrOptions.errorCorrectionLevel', 'h', 'style.qrOptions.errorCorrectionLevel', /must be one of/],
    ['margin', -1, 'style.margin', /must be an integer from 0 to 100/],
    ['margin', 2.5, 'style.margin', /integer/],
    ['margin', 101, 'style.margin', /integer/],
    ['margin', '4', 'style.margin', /integer/],
    ['shape', 'triangle', 'style.shape', /must be one of: square, circle$/],
    ['shape', null, 'style.shape', /must be one of/],
  ];

  test.each(rejected)('%s = %j → %s', (path, value, field, message) => {
    const errors = errorsOf(checkStyle(styleWith(path, value)));
    expect(errors).toEqual([{ field, message: expect.stringMatching(message) }]);
    expect(errors[0].message.startsWith(`${field} `)).toBe(true);
  });

  test.each([
    ['null', null],
    ['an array', [{ dotsOptions: {} }]],
    ['a string', '{"dotsOptions":{}}'],
    ['a number', 1],
    ['a boolean', true],
  ])('a style that is %s is refused as a whole', (_, raw) => {
    expect(errorsOf(checkStyle(raw))).toEqual([{ field: 'style', message: 'style must be an object' }]);
  });

  test('every problem is reported, not just the first', () => {
    const result = checkStyle({ dotsOptions: { color: 'red', type: 'star' }, margin: -1, extra: 1 });
    expect(fieldsOf(result).sort()).toEqual(['style.dotsOptions.color', 'style.dotsOptions.type', 'style.extra', 'style.margin']);
  });
});

describe('checkStyle: unknown keys', () => {
  const unknownAt: Array<[string, Record<string, unknown>]> = [
    ['style.color', { color: '#000' }],
    ['style.dotsOptions.colour', { dotsOptions: { colour: '#000' } }],
    ['style.cornersSquareOptions.size', { cornersSquareOptions: { size: 3 } }],
    ['style.cornersDotOptions.roundSize', { cornersDotOptions: { roundSize: true } }],
    ['style.backgroundOptions.image', { backgroundOptions: { image: 'x' } }],
    ['style.imageOptions.crossOrigin', { imageOptions: { crossOrigin: 'anonymous' } }],
    ['style.qrOptions.typeNumber', { qrOptions: { typeNumber: 0 } }],
    ['style.qrOptions.mode', { qrOptions: { mode: 'Byte' } }],
    ['style.dotsOptions.gradient.stops', { dotsOptions: { gradient: { colorStops: [{ offset: 0, color: '#000' }], stops: [] } } }],
    [
      'style.backgroundOptions.gradient.colorStops[0].opacity',
      { backgroundOptions: { gradient: { colorStops: [{ offset: 0, color: '#fff', opacity: 1 }] } } },
    ],
    ['style.width', { width: 300 }],
    ['style.data', { data: 'https://example.com' }],
  ];

  test.each(unknownAt)('%s is not an allowed field', (field, style) => {
    expect(errorsOf(checkStyle(style))).toEqual([{ field, message: `${field} is not an allowed field` }]);
  });

  test.each(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'])(
    'the key %s, which every object inherits, is not mistaken for a field',
    (key) => {
      const style = JSON.parse(`{"${key}": {"polluted": true}, "dotsOptions": {"${key}": {"color": "#fff"}}}`);
      expect(fieldsOf(checkStyle(style)).sort()).toEqual([`style.${key}`, `style.dotsOptions.${key}`].sort());
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  test('a __proto__ key cannot smuggle fields into the result', () => {
    const style = JSON.parse('{"__proto__": {"image": "javascript:alert(1)"}}');
    const result = checkStyle(style);
    expect(errorsOf(result)).toEqual([{ field: 'style.__proto__', message: 'style.__proto__ is not an allowed field' }]);
    expect(Object.prototype).not.toHaveProperty('image');
  });
});

describe('checkStyle: hostile sizes and shapes', () => {
  function nested(depth: number): Record<string, unknown> {
    let node: Record<string, unknown> = {};
    for (let level = 0; level < depth; level++) node = { a: node };
    return node;
  }

  function timed(run: () => StyleCheck): { result: StyleCheck; ms: number } {
    const started = performance.now();
    const result = run();
    return { result, ms: performance.now() - started };
  }

  test('10,000 nested objects as the style are refused at the first unknown key, quickly', () => {
    const { result, ms } = timed(() => checkStyle(nested(10_000)));
    expect(errorsOf(result)).toEqual([{ field: 'style.a', message: 'style.a is not an allowed field' }]);
    expect(ms).toBeLessThan(100);
  });

  test('10,000 nested objects parsed from JSON under a known key are refused without descending', () => {
    const deepJson = '{"a":'.repeat(10_000) + '{}' + '}'.repeat(10_000);
    const style = JSON.parse(`{"dotsOptions":{"gradient":{"colorStops":[{"offset":0,"color":${deepJson}}]}}}`);
    const { result, ms } = timed(() => checkStyle(style));
    expect(errorsOf(result)).toEqual([{ field: 'style.dotsOptions.gradient.colorStops[0].color', message: expect.stringMatching(/hex color/) }]);
    expect(ms).toBeLessThan(100);
  });

  test('10,000 nested arrays as colour stops are refused', () => {
    let deepArray: unknown = [];
    for (let level = 0; level < 10_000; level++) deepArray = [deepArray];
    const { result, ms } = timed(() => checkStyle({ dotsOptions: { gradient: { colorStops: deepArray } } }));
    expect(errorsOf(result)).toEqual([
      {
        field: 'style.dotsOptions.gradient.colorStops[0]',
        message: 'style.dotsOptions.gradient.colorStops[0] must be an object',
      },
    ]);
    expect(ms).toBeLessThan(100);
  });

  test('a 100,000-element colorStops array is refused by its length alone, quickly', () => {
    const colorStops = Array.from({ length: 100_000 }, () => ({ offset: 0, color: 'not a colour' }));
    const { result, ms } = timed(() => checkStyle({ dotsOptions: { gradient: { colorStops } } }));
    expect(errorsOf(result)).toEqual([
      {
        field: 'style.dotsOptions.gradient.colorStops',
        message: 'style.dotsOptions.gradient.colorStops must have 1 to 10 items',
      },
    ]);
    expect(ms).toBeLessThan(50);
  });

  test('100,000 unknown keys give a bounded list of errors', () => {
    const style = Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`k${index}`, index]));
    const { result, ms } = timed(() => checkStyle(style));
    expect(errorsOf(result)).toHaveLength(MAX_STYLE_ERRORS);
    expect(errorsOf(result)[0]).toEqual({ field: 'style.k0', message: 'style.k0 is not an allowed field' });
    expect(ms).toBeLessThan(200);
  });

  test('values JSON cannot produce do not make it throw', () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const throwingGetter = Object.defineProperty({}, 'margin', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const hostile = [revoked.proxy, { dotsOptions: revoked.proxy }, throwingGetter, Symbol('style'), () => ({}), 10n];
    for (const raw of hostile) {
      expect(() => checkStyle(raw)).not.toThrow();
      expect(checkStyle(raw).ok).toBe(false);
    }
    expect(fieldsOf(checkStyle(throwingGetter))).toEqual(['style']);
  });
});
