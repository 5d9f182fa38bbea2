import { isWrittenPhoneNumber } from './phone-number';

describe('isWrittenPhoneNumber', () => {
  test.each(['+4930123456', '+49 (30) 123-456', '(+44) 20 7946 0000', '030.123.456', '112', '+1 555 010 9999', '1'.repeat(32)])(
    'accepts %j',
    (value) => {
      expect(isWrittenPhoneNumber(value)).toBe(true);
    },
  );

  test.each(['12', '+12', '1-2', '---', '()+', 'abc', '+49 30 12x', '49+301234', '++49123', '1'.repeat(33), '+49/30/1234', '+49\t301234', ''])(
    'refuses %j',
    (value) => {
      expect(isWrittenPhoneNumber(value)).toBe(false);
    },
  );
});
