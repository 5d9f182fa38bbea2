import { encodePhone } from './phone.encoder';

describe('encodePhone', () => {
  test.each([
    ['+4930123456', 'tel:+4930123456'],
    ['+49 (30) 123-456.78', 'tel:+493012345678'],
    ['(+44) 20 7946 0000', 'tel:+442079460000'],
    ['112', 'tel:112'],
  ])('%s → %s', (number, expected) => {
    expect(encodePhone({ number })).toBe(expected);
  });
});
