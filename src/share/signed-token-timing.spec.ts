import { randomBytes, timingSafeEqual } from 'node:crypto';
import { signToken, tokenSigned } from './signed-token';

jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  return { ...actual, timingSafeEqual: jest.fn(actual.timingSafeEqual) };
});

describe('signed tokens: the signature comparison', () => {
  const secret = randomBytes(32);
  const token = signToken('0b7d3c1e-5a4f-4e2b-9c8d-7f6e5d4c3b2a', secret, 'stats');
  const compare = timingSafeEqual as jest.MockedFunction<typeof timingSafeEqual>;

  beforeEach(() => compare.mockClear());

  it('is crypto.timingSafeEqual, of two 16-byte MACs, for a right and for a wrong signature', () => {
    expect(tokenSigned(token, secret, 'stats')).toBe(true);
    const altered = token.slice(0, 30) + (token[30] === 'A' ? 'B' : 'A') + token.slice(31);
    expect(tokenSigned(altered, secret, 'stats')).toBe(false);
    expect(compare).toHaveBeenCalledTimes(2);
    for (const [given, expected] of compare.mock.calls) expect([given.byteLength, expected.byteLength]).toEqual([16, 16]);
  });
});
