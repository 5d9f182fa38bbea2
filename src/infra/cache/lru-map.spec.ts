import { LruMap } from './lru-map';

describe('LruMap', () => {
  it('evicts the least recently inserted entry beyond its capacity', () => {
    const map = new LruMap<number>(3);
    for (const [index, key] of ['a', 'b', 'c', 'd'].entries()) map.set(key, index, 60_000);
    expect(['a', 'b', 'c', 'd'].map((key) => map.get(key))).toEqual([undefined, 1, 2, 3]);
  });

  it('keeps an entry that is read within every half capacity of insertions, however many come', () => {
    const map = new LruMap<string>(10);
    map.set('hot', 'kept', 60_000);
    for (let i = 0; i < 1000; i++) {
      map.set(`cold-${i}`, 'x', 60_000);
      if (i % 5 === 4) expect(map.get('hot')).toBe('kept');
    }
    expect(map.get('cold-0')).toBeUndefined();
    expect(map.get('cold-999')).toBe('x');
  });

  it('evicts an entry that is not read again', () => {
    const map = new LruMap<string>(10);
    map.set('once', 'v', 60_000);
    expect(map.get('once')).toBe('v');
    for (let i = 0; i < 10; i++) map.set(`k${i}`, 'x', 60_000);
    expect(map.get('once')).toBeUndefined();
  });

  it('expires entries by their own time to live', () => {
    const map = new LruMap<string>(10);
    map.set('short', 'v', 1000, 0);
    map.set('long', 'v', 5000, 0);
    expect(map.get('short', 999)).toBe('v');
    expect(map.get('short', 1000)).toBeUndefined();
    expect(map.get('long', 1000)).toBe('v');
  });

  it('deletes one key or every key matching a predicate', () => {
    const map = new LruMap<number>(10);
    for (const key of ['img:1:a', 'img:1:b', 'img:2:a']) map.set(key, 1, 60_000);
    map.deleteWhere((key) => key.startsWith('img:1:'));
    map.delete('img:2:a');
    expect(['img:1:a', 'img:1:b', 'img:2:a'].map((key) => map.get(key))).toEqual([undefined, undefined, undefined]);
  });
});
