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
    let now = 1_000_000;
    const cache = new MemoryCache(10, () => now);
    await cache.set('a', 'one', 10);
    await cache.set('b', 'two', 20);
    now += 10_000;
    expect((await cache.get('a'))?.toString()).toBe('one');
    now += 1;
    expect(await cache.get('a')).toBeNull();
    expect((await cache.get('b'))?.toString()).toBe('two');
  });

  it('keeps nothing for a ttl of 0 (not "forever")', async () => {
    const cache = new MemoryCache();
    await cache.set('a', 'old', 60);
    await cache.set('a', 'one', 0);
    expect(await cache.get('a')).toBeNull();
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

  it('deletes a group with all its members, and only that group', async () => {
    const cache = new MemoryCache();
    await cache.setMember('img:1', '1:300', 'x', 60);
    await cache.setMember('img:1', '1:500', 'y', 60);
    await cache.setMember('img:2', '1:300', 'z', 60);
    expect((await cache.getMember('img:1', '1:500'))?.toString()).toBe('y');
    await cache.delete('img:1');
    expect(await cache.getMember('img:1', '1:300')).toBeNull();
    expect(await cache.getMember('img:1', '1:500')).toBeNull();
    expect((await cache.getMember('img:2', '1:300'))?.toString()).toBe('z');
  });

  it('keeps keys and groups apart: a plain key is no group and a group no plain key', async () => {
    const cache = new MemoryCache();
    await cache.set('k', 'v', 60);
    await cache.setMember('g', 'm', 'w', 60);
    expect(await cache.getMember('k', 'm')).toBeNull();
    expect(await cache.get('g')).toBeNull();
  });
});
