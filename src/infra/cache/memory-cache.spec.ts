import { MemoryCache } from './memory-cache';

describe('MemoryCache', () => {
  it('stores, reads and deletes', async () => {
    const cache = new MemoryCache();
    await cache.set('a', 'one', 60);
    expect((await cache.get('a'))?.toString()).toBe('one');
    await cache.delete('a');
    expect(await cache.get('a')).toBeNull();
  });

  it('expires entries after their ttl', async () => {
    const cache = new MemoryCache();
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    await cache.set('a', 'one', 10);
    now.mockReturnValue(1_000_000 + 10_001);
    expect(await cache.get('a')).toBeNull();
    now.mockRestore();
  });

  it('evicts the least recently used entry beyond its bound', async () => {
    const cache = new MemoryCache(2);
    await cache.set('a', '1', 60);
    await cache.set('b', '2', 60);
    await cache.get('a');
    await cache.set('c', '3', 60);
    expect(await cache.get('b')).toBeNull();
    expect((await cache.get('a'))?.toString()).toBe('1');
    expect((await cache.get('c'))?.toString()).toBe('3');
  });

  it('deletes by prefix only the matching keys', async () => {
    const cache = new MemoryCache();
    await cache.set('img:1:300', 'x', 60);
    await cache.set('img:1:500', 'y', 60);
    await cache.set('img:2:300', 'z', 60);
    await cache.deleteByPrefix('img:1:');
    expect(await cache.get('img:1:300')).toBeNull();
    expect(await cache.get('img:1:500')).toBeNull();
    expect(await cache.get('img:2:300')).not.toBeNull();
  });
});
