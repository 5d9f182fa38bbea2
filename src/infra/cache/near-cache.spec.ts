import { NearCache } from './near-cache';

function nearCache(options: { maxEntries?: number; ttlMs?: number } = {}) {
  let now = 1_000_000;
  const broadcast = jest.fn((_key: string) => Promise.resolve());
  const cache = new NearCache<{ url: string } | null>('links', { maxEntries: 10, ttlMs: 60_000, ...options, clock: () => now }, broadcast);
  return { cache, broadcast, advance: (ms: number) => (now += ms) };
}

describe('NearCache', () => {
  it('tells a miss (undefined) from a remembered absence (null)', () => {
    const { cache } = nearCache();
    cache.set('gone', null);
    expect(cache.get('gone')).toBeNull();
    expect(cache.get('never-set')).toBeUndefined();
  });

  it('keeps an entry for its own time to live, or the cache default, whether read or not', () => {
    const { cache, advance } = nearCache({ ttlMs: 60_000 });
    cache.set('found', { url: 'https://example.com' });
    cache.set('missing', null, 5_000);
    advance(5_000);
    expect(cache.get('missing')).toBeNull();
    advance(1);
    expect(cache.get('missing')).toBeUndefined();
    expect(cache.get('found')).toEqual({ url: 'https://example.com' });
    advance(55_000);
    expect(cache.get('found')).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const { cache } = nearCache({ maxEntries: 2 });
    cache.set('a', { url: 'a' });
    cache.set('b', { url: 'b' });
    cache.get('a');
    cache.set('c', { url: 'c' });
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([{ url: 'a' }, undefined, { url: 'c' }]);
  });

  it('invalidates here and tells the other instances; deletes and clears locally without telling them', async () => {
    const { cache, broadcast } = nearCache();
    for (const key of ['a', 'b', 'c']) cache.set(key, { url: key });
    await cache.invalidate('a');
    expect(cache.get('a')).toBeUndefined();
    expect(broadcast.mock.calls).toEqual([['a']]);
    cache.deleteLocal('b');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toEqual({ url: 'c' });
    cache.clearLocal();
    expect(cache.get('c')).toBeUndefined();
    expect(broadcast).toHaveBeenCalledTimes(1);
  });
});
