import { createLru } from './lru';

/** A clock moved by hand; it starts above 0 (an entry written at time 0 would never expire). */
function manualClock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let now = start;
  return { now: () => now, advance: (ms) => (now += ms) };
}

describe('createLru', () => {
  it('evicts the least recently written entry beyond its capacity', () => {
    const lru = createLru<number>({ max: 3, ttl: 60_000 });
    for (const [index, key] of ['a', 'b', 'c', 'd'].entries()) lru.set(key, index);
    expect(['a', 'b', 'c', 'd'].map((key) => lru.get(key))).toEqual([undefined, 1, 2, 3]);
  });

  it('keeps an entry that is read, however many others are written', () => {
    const lru = createLru<string>({ max: 10, ttl: 60_000 });
    lru.set('hot', 'kept');
    for (let i = 0; i < 1000; i++) {
      lru.set(`cold-${i}`, 'x');
      if (i % 5 === 4) expect(lru.get('hot')).toBe('kept');
    }
    expect(lru.get('cold-0')).toBeUndefined();
    expect(lru.get('cold-999')).toBe('x');
  });

  it('evicts an entry that is not read again', () => {
    const lru = createLru<string>({ max: 10, ttl: 60_000 });
    lru.set('once', 'v');
    expect(lru.get('once')).toBe('v');
    for (let i = 0; i < 10; i++) lru.set(`k${i}`, 'x');
    expect(lru.get('once')).toBeUndefined();
  });

  it('expires entries by their own time to live, or the default one', () => {
    const clock = manualClock();
    const lru = createLru<string>({ max: 10, ttl: 5000, clock: clock.now });
    lru.set('short', 'v', { ttl: 1000 });
    lru.set('default', 'v');
    clock.advance(1000);
    expect(lru.get('short')).toBe('v');
    clock.advance(1);
    expect(lru.get('short')).toBeUndefined();
    expect(lru.get('default')).toBe('v');
    clock.advance(4000);
    expect(lru.get('default')).toBeUndefined();
  });

  it('does not extend an entry by reading it, and never serves it expired', () => {
    const clock = manualClock();
    const lru = createLru<string>({ max: 10, ttl: 1000, clock: clock.now });
    lru.set('k', 'v');
    for (let i = 0; i < 10; i++) {
      clock.advance(100);
      expect(lru.get('k')).toBe('v');
    }
    clock.advance(1);
    expect(lru.get('k')).toBeUndefined();
    expect(lru.size).toBe(0);
  });

  it('starts an entry afresh when it is written again', () => {
    const clock = manualClock();
    const lru = createLru<string>({ max: 10, ttl: 1000, clock: clock.now });
    lru.set('k', 'old');
    clock.advance(900);
    lru.set('k', 'new');
    clock.advance(900);
    expect(lru.get('k')).toBe('new');
  });

  it('sets no timer per entry', () => {
    const timers = jest.spyOn(global, 'setTimeout');
    const lru = createLru<number>({ max: 100, ttl: 60_000 });
    for (let i = 0; i < 100; i++) lru.set(`k${i}`, i);
    expect(timers).not.toHaveBeenCalled();
    timers.mockRestore();
  });
});
