/**
 * Style values end up in SVG attributes; anything that is not exactly an allowed value must be
 * refused before it gets near the renderer.
 */
import { checkStyle } from './check-style';

const SVG_WITH_SCRIPT = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>';

const INJECTIONS = [
  'red" onload="x',
  '#000" onload="alert(1)',
  "#000' onload='alert(1)",
  '</svg><script>alert(1)</script>',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  '&xxe;',
  '&lt;',
  '<!ENTITY xxe SYSTEM "file:///etc/passwd">',
  '<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
  'url(#x)',
  'url(http://evil.example/x.svg#a)',
  'rgb(0,0,0)',
  'hsl(0 0% 0%)',
  'currentColor',
  '#000;fill:url(http://evil.example)',
  '#000000\n',
  ' #000000',
  '#000000\u0000',
  '#fff\u202e',
  `data:image/svg+xml;base64,${Buffer.from(SVG_WITH_SCRIPT).toString('base64')}`,
];

const COLOR_FIELDS = ['dotsOptions.color', 'cornersSquareOptions.color', 'cornersDotOptions.color', 'backgroundOptions.color'];

const GRADIENT_OWNERS = ['dotsOptions', 'cornersSquareOptions', 'cornersDotOptions', 'backgroundOptions'];

const CHOICE_FIELDS = [
  'dotsOptions.type',
  'cornersSquareOptions.type',
  'cornersDotOptions.type',
  'dotsOptions.gradient.type',
  'qrOptions.errorCorrectionLevel',
  'shape',
];

function styleAt(path: string, value: unknown): Record<string, unknown> {
  const [owner, key] = path.split('.');
  return key === undefined ? { [owner]: value } : { [owner]: { [key]: value } };
}

describe('injection corpus', () => {
  describe.each(COLOR_FIELDS)('in %s', (path) => {
    test.each(INJECTIONS)('%j is refused', (payload) => {
      expect(checkStyle(styleAt(path, payload))).toEqual({
        ok: false,
        errors: [{ field: `style.${path}`, message: expect.stringMatching(/must be a hex color/) }],
      });
    });
  });

  describe.each(GRADIENT_OWNERS)('in a %s gradient stop', (owner) => {
    test.each(INJECTIONS)('%j is refused naming the stop', (payload) => {
      const gradient = {
        colorStops: [
          { offset: 0, color: '#000' },
          { offset: 1, color: payload },
        ],
      };
      expect(checkStyle({ [owner]: { gradient } })).toEqual({
        ok: false,
        errors: [{ field: `style.${owner}.gradient.colorStops[1].color`, message: expect.stringMatching(/hex color/) }],
      });
    });
  });

  describe.each(CHOICE_FIELDS)('in %s', (path) => {
    test.each(INJECTIONS)('%j is refused', (payload) => {
      const style =
        path === 'dotsOptions.gradient.type'
          ? { dotsOptions: { gradient: { type: payload, colorStops: [{ offset: 0, color: '#000' }] } } }
          : styleAt(path, payload);
      expect(checkStyle(style)).toEqual({
        ok: false,
        errors: [{ field: `style.${path}`, message: expect.stringMatching(/must be one of/) }],
      });
    });
  });

  test.each(INJECTIONS)('%j as the logo is refused', (payload) => {
    expect(checkStyle({ image: payload })).toEqual({
      ok: false,
      errors: [{ field: 'style.image', message: expect.stringMatching(/must be a data: URI|must not be an SVG image/) }],
    });
  });

  test.each(['<!ENTITY', '&xxe;', '</svg><script>', 'on"load'])('%j as a key is refused as an unknown field', (key) => {
    expect(checkStyle({ dotsOptions: { [key]: '#000' } })).toEqual({
      ok: false,
      errors: [{ field: `style.dotsOptions.${key}`, message: `style.dotsOptions.${key} is not an allowed field` }],
    });
  });
});
