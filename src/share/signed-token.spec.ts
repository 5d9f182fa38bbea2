import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { signToken, tokenRecordId, tokenSigned } from './signed-token';

const secret = randomBytes(32);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const id = '0b7d3c1e-5a4f-4e2b-9c8d-7f6e5d4c3b2a';

describe('signed tokens', () => {
  const token = signToken(id, secret, 'stats');

  it('are 44 URL-safe characters that name their record', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{44}$/);
    expect(tokenRecordId(token)).toBe(id);
    expect(tokenSigned(token, secret, 'stats')).toBe(true);
  });

  it.each([
    ['another secret', () => tokenSigned(token, randomBytes(32), 'stats')],
    ['another purpose', () => tokenSigned(token, secret, 'image')],
    ['a changed signature character', () => tokenSigned(token.slice(0, 22) + (token[22] === 'A' ? 'B' : 'A') + token.slice(23), secret, 'stats')],
    [
      'the signature spelt another way (unused bits set)',
      () => tokenSigned(token.slice(0, 43) + ALPHABET[ALPHABET.indexOf(token[43]) + 1], secret, 'stats'),
    ],
    [
      'another record with this signature',
      () => tokenSigned(signToken(randomUUID(), secret, 'stats').slice(0, 22) + token.slice(22), secret, 'stats'),
    ],
    ['one character short', () => tokenSigned(token.slice(1), secret, 'stats')],
    ['padding', () => tokenSigned(`${token}=`, secret, 'stats')],
  ])('refuse %s', (_case, check) => {
    expect(check()).toBe(false);
  });

  it('never throw and accept nothing else, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        expect(tokenSigned(text, secret, 'stats')).toBe(text === token);
        const named = tokenRecordId(text);
        if (named !== null) expect(named).toMatch(/^[0-9a-f-]{36}$/);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuse a non-canonical base64url id (the same bytes spelt another way)', () => {
    // The 22nd character of 16 bytes carries 4 unused bits: only the spelling with them zero is canonical.
    const alias = ALPHABET[ALPHABET.indexOf(token[21]) + 1];
    expect(Buffer.from(token.slice(0, 21) + alias, 'base64url')).toEqual(Buffer.from(token.slice(0, 22), 'base64url'));
    expect(tokenRecordId(token.slice(0, 21) + alias + token.slice(22))).toBeNull();
  });
});
