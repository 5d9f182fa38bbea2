import { canonicalJson, idempotencyKeyLines, parseIdempotencyKey, requestFingerprint } from './idempotency-key';

describe('parseIdempotencyKey', () => {
  it.each([
    [undefined, { ok: true, key: undefined }],
    ['abc-123', { ok: true, key: 'abc-123' }],
    ['"8e03978e-40d5-43e8-bc93-6894a57f9324"', { ok: true, key: '8e03978e-40d5-43e8-bc93-6894a57f9324' }],
    ['"with \\"quote\\""', { ok: true, key: 'with "quote"' }],
    ['k'.repeat(255), { ok: true, key: 'k'.repeat(255) }],
  ])('accepts %j', (header, expected) => {
    expect(parseIdempotencyKey(header)).toEqual(expected);
  });

  it.each([
    ['', /must not be empty/],
    ['""', /must not be empty/],
    ['k'.repeat(256), /at most 255 characters/],
    ['caf\u00e9', /printable ASCII/],
    ['tab\there', /printable ASCII/],
    [['a', 'b'], /send it once/],
  ])('refuses %j naming the header', (header, message) => {
    const parsed = parseIdempotencyKey(header);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.field).toBe('Idempotency-Key');
      expect(parsed.error.message).toMatch(message);
    }
  });
});

describe('idempotencyKeyLines', () => {
  it.each([
    [[], undefined],
    [['X-Api-Key', 'k', 'Idempotency-Key', 'a'], 'a'],
    [['idempotency-key', 'a, b'], 'a, b'],
    [
      ['Idempotency-Key', 'a', 'x', 'y', 'IDEMPOTENCY-KEY', 'b'],
      ['a', 'b'],
    ],
  ])('reads %j as %j', (rawHeaders, expected) => {
    expect(idempotencyKeyLines(rawHeaders)).toEqual(expected);
  });
});

describe('requestFingerprint', () => {
  it('is the same for the same body in another key order', () => {
    expect(requestFingerprint('POST', '/api/v1/qrcodes', { a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(
      requestFingerprint('POST', '/api/v1/qrcodes', { b: { c: [1, { e: 3, d: 2 }] }, a: 1 }),
    );
  });

  it.each([
    ['another body', 'POST', '/api/v1/qrcodes', { a: 2 }],
    ['another path', 'POST', '/api/v1/qrcodes/bulk', { a: 1 }],
    ['another method', 'PUT', '/api/v1/qrcodes', { a: 1 }],
  ])('differs for %s', (_what, method, path, body) => {
    expect(requestFingerprint(method, path, body)).not.toBe(requestFingerprint('POST', '/api/v1/qrcodes', { a: 1 }));
  });

  it('keeps array order and tells values apart by type', () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
  });
});
