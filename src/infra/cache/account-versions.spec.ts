import { AccountVersions } from './account-versions';
import type { Cache } from './cache';
import { MemoryCache } from './memory-cache';

describe('AccountVersions', () => {
  it('keeps one version per account until it is replaced', async () => {
    const versions = new AccountVersions(new MemoryCache());
    const first = await versions.current('a');
    expect(await versions.current('a')).toBe(first);
    expect(await versions.current('b')).not.toBe(first);
    const replaced = await versions.replace('a');
    expect(replaced).not.toBe(first);
    expect(await versions.current('a')).toBe(replaced);
  });

  it('never returns an earlier version after the key was lost (evicted or expired)', async () => {
    const cache = new MemoryCache();
    const versions = new AccountVersions(cache);
    const seen = new Set([await versions.current('a')]);
    for (let i = 0; i < 20; i++) {
      await cache.delete('account-version:a');
      const next = await versions.current('a');
      expect(seen.has(next)).toBe(false);
      seen.add(next);
    }
  });

  it('gives a fresh version on every read when the cache fails, so nothing cached is reused', async () => {
    const failing: Cache = { get: async () => null, set: async () => undefined, delete: async () => undefined, deleteByPrefix: async () => undefined };
    const versions = new AccountVersions(failing);
    expect(await versions.current('a')).not.toBe(await versions.current('a'));
  });
});
