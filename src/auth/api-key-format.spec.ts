import { randomBase62 } from '../common/random/base62';
import { API_KEY_PREFIX, generateApiKey, hashApiKey, looksLikeApiKey } from './api-key-format';

describe('API key format', () => {
  it('generates qr_live_ keys of 40 base62 characters', () => {
    const { key } = generateApiKey();
    expect(key).toMatch(/^qr_live_[0-9A-Za-z]{40}$/);
    expect(looksLikeApiKey(key)).toBe(true);
  });

  it('stores only a SHA-256 hex of the key and a short display prefix', () => {
    const { key, hash, prefix } = generateApiKey();
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(hashApiKey(key));
    expect(hash).not.toContain(key.slice(API_KEY_PREFIX.length));
    expect(prefix).toBe(key.slice(0, 12));
    expect(key.startsWith(prefix)).toBe(true);
  });

  it('hashes deterministically and distinctly', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashApiKey('qr_live_abc')).toBe(hashApiKey('qr_live_abc'));
    expect(hashApiKey('qr_live_abc')).not.toBe(hashApiKey('qr_live_abd'));
  });

  it('never repeats keys', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateApiKey().key));
    expect(keys.size).toBe(2000);
  });

  it('draws every base62 character with no visible bias', () => {
    const counts = new Map<string, number>();
    for (const ch of randomBase62(62_000)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(count).toBeGreaterThan(700);
  });

  it.each([
    ['qr_live_', false],
    ['qr_live_short', false],
    ['qr_test_' + 'a'.repeat(40), false],
    ['qr_live_' + 'a'.repeat(39) + '!', false],
    ['qr_live_' + 'a'.repeat(40), true],
  ])('looksLikeApiKey(%s) is %s', (value, expected) => {
    expect(looksLikeApiKey(value)).toBe(expected);
  });
});
