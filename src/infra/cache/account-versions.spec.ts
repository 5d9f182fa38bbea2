import { AccountVersions } from './account-versions';
import type { Cache } from './cache';
import { MemoryCache } from './memory-cache';

/** A memory cache whose writes can be made to fail, as Redis does on a timeout. */
class FlakyCache extends MemoryCache {
  failWrites = false;
  override async set(key: string, value: Buffer | string, ttlSeconds: number): Promise<boolean> {
    return this.failWrites ? false : super.set(key, value, ttlSeconds);
  }
}

describe('AccountVersions', () => {
  it('keeps one version per account until it is replaced', async () => {
    const versions = new AccountVersions(new MemoryCache(), 60);
    const first = await versions.current('a');
    expect(first).toEqual(expect.any(String));
    expect(await versions.current('a')).toBe(first);
    expect(await versions.current('b')).not.toBe(first);
    await versions.replace('a');
    const replaced = await versions.current('a');
    expect(replaced).not.toBe(first);
    expect(await versions.current('a')).toBe(replaced);
  });

  it('never returns an earlier version after the key was lost (evicted or expired)', async () => {
    const cache = new MemoryCache();
    const versions = new AccountVersions(cache, 60);
    const seen = new Set([await versions.current('a')]);
    for (let i = 0; i < 20; i++) {
      await cache.delete('account-version:a');
      const next = await versions.current('a');
      expect(seen.has(next)).toBe(false);
      seen.add(next);
    }
  });

  it('gives no version (nothing is cached) while the cache cannot store one', async () => {
    const failing: Cache = {
      get: async () => null,
      set: async () => false,
      getMember: async () => null,
      setMember: async () => false,
      delete: async () => undefined,
    };
    expect(await new AccountVersions(failing, 60).current('a')).toBeNull();
  });

  it('after a write whose new version could not be stored, gives no version for as long as entries live', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const cache = new FlakyCache();
      const versions = new AccountVersions(cache, 60);
      const before = await versions.current('a');
      cache.failWrites = true;
      await versions.replace('a');
      cache.failWrites = false;
      // The old version is still in the cache, but it must not be used: entries under it predate the write.
      expect(await versions.current('a')).toBeNull();
      expect(await versions.current('b')).toEqual(expect.any(String));
      jest.setSystemTime(60_001);
      expect(await versions.current('a')).toBe(before);
    } finally {
      jest.useRealTimers();
    }
  });
});
