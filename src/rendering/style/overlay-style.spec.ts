import { overlayStyle } from './overlay-style';

describe('overlayStyle', () => {
  it.each([
    [
      'fields of the top win, the rest stay',
      { margin: 4, dotsOptions: { type: 'dots', color: '#000' } },
      { dotsOptions: { color: '#123456' } },
      { margin: 4, dotsOptions: { type: 'dots', color: '#123456' } },
    ],
    [
      'arrays are replaced whole',
      { dotsOptions: { gradient: { colorStops: [1, 2, 3] } } },
      { dotsOptions: { gradient: { colorStops: [9] } } },
      { dotsOptions: { gradient: { colorStops: [9] } } },
    ],
    ['null in the top replaces', { image: 'data:x' }, { image: null }, { image: null }],
    ['an empty top keeps the base', { margin: 4 }, {}, { margin: 4 }],
    ['no base: the top as it is', undefined, { margin: 2 }, { margin: 2 }],
    ['no top: the base as it is', { margin: 2 }, undefined, { margin: 2 }],
  ])('%s', (_case, base, top, merged) => {
    expect(overlayStyle(base, top)).toEqual(merged);
  });

  it('changes neither input', () => {
    const base = { dotsOptions: { color: '#000' } };
    const top = { dotsOptions: { type: 'dots' } };
    overlayStyle(base, top);
    expect(base).toEqual({ dotsOptions: { color: '#000' } });
    expect(top).toEqual({ dotsOptions: { type: 'dots' } });
  });
});
