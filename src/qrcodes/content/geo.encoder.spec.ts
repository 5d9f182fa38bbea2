import { encodeGeo } from './geo.encoder';

describe('encodeGeo', () => {
  test.each<[number, number, string]>([
    [52.52, 13.405, 'geo:52.52,13.405'],
    [-33.8688, 151.2093, 'geo:-33.8688,151.2093'],
    [0, 0, 'geo:0,0'],
    [90, -180, 'geo:90,-180'],
    [1e-7, -1e-7, 'geo:0.0000001,-0.0000001'],
    [0.1 + 0.2, 100, 'geo:0.3,100'],
    [-0, 12.123456789, 'geo:0,12.1234568'],
    [1e-9, -1e-9, 'geo:0,0'],
  ])('%p, %p → %s', (latitude, longitude, expected) => {
    expect(encodeGeo({ latitude, longitude })).toBe(expected);
  });
});
