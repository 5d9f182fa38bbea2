import { CORNER_DOT_TYPES, CORNER_SQUARE_TYPES, DOT_TYPES, type QrStyle } from './qr-style';
import { resolveFinderTypes } from './finder-defaults';

describe('scannable finder defaults', () => {
  it.each<
    [string, QrStyle, ReturnType<typeof resolveFinderTypes>['cornersSquareType'], ReturnType<typeof resolveFinderTypes>['cornersDotType'], string[]]
  >([
    [
      'dots, corners unset',
      { dotsOptions: { type: 'dots' } },
      'extra-rounded',
      'dot',
      ['style.cornersSquareOptions.type', 'style.cornersDotOptions.type'],
    ],
    [
      'dots, square ring set',
      { dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'square' } },
      'square',
      'square',
      ['style.cornersDotOptions.type'],
    ],
    [
      'dots, round ring set',
      { dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'dot' } },
      'dot',
      'dot',
      ['style.cornersDotOptions.type'],
    ],
    [
      'dots, extra-rounded ring set',
      { dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'extra-rounded' } },
      'extra-rounded',
      'dot',
      ['style.cornersDotOptions.type'],
    ],
    [
      'dots, loose ring set',
      { dotsOptions: { type: 'dots' }, cornersSquareOptions: { type: 'dots' } },
      'dots',
      'square',
      ['style.cornersDotOptions.type'],
    ],
    [
      'dots, centre set',
      { dotsOptions: { type: 'dots' }, cornersDotOptions: { type: 'square' } },
      'extra-rounded',
      'square',
      ['style.cornersSquareOptions.type'],
    ],
    ['rounded, corners unset: modules of the dots type', { dotsOptions: { type: 'rounded' } }, undefined, undefined, []],
    ['plain', {}, undefined, undefined, []],
  ])('%s', (_name, style, ring, centre, fields) => {
    const resolved = resolveFinderTypes(style);
    expect(resolved.cornersSquareType).toBe(ring);
    expect(resolved.cornersDotType).toBe(centre);
    expect(resolved.applied.map((applied) => applied.field)).toEqual(fields);
    for (const applied of resolved.applied) expect(applied.reason).toMatch(/unset, and dots modules/);
  });

  it('never changes a corner type the user set', () => {
    for (const dotsType of DOT_TYPES) {
      for (const ring of CORNER_SQUARE_TYPES) {
        for (const centre of CORNER_DOT_TYPES) {
          const resolved = resolveFinderTypes({
            dotsOptions: { type: dotsType },
            cornersSquareOptions: { type: ring },
            cornersDotOptions: { type: centre },
          });
          expect([resolved.cornersSquareType, resolved.cornersDotType, resolved.applied]).toEqual([ring, centre, []]);
        }
      }
    }
  });
});
