import { ConcurrencyLimit, SlotWaitTimeout } from './concurrency-limit';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyLimit', () => {
  it('runs at most max tasks at once, the rest in arrival order', async () => {
    const limit = new ConcurrencyLimit(2);
    const started: number[] = [];
    const releases: Array<() => void> = [];
    const runs = [0, 1, 2, 3, 4].map((n) =>
      limit.run(async () => {
        started.push(n);
        await new Promise<void>((resolve) => releases.push(resolve));
        return n;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    releases[1]();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    releases[0]();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    // A newcomer while all slots are busy queues behind the waiters.
    const late = limit.run(async () => 'late');
    releases[2]();
    releases[3]();
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    releases[4]();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(await late).toBe('late');
  });

  it('frees the slot of a failed task', async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.run(async () => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    expect(await limit.run(async () => 'next')).toBe('next');
  });

  it.each([0, -1, 1.5])('refuses %p as a limit', (max) => {
    expect(() => new ConcurrencyLimit(max)).toThrow(RangeError);
  });
});

describe('ConcurrencyLimit with a bounded wait', () => {
  it('fails a task that waits longer than maxWaitMs, and the queue moves on without it', async () => {
    jest.useFakeTimers();
    try {
      const limit = new ConcurrencyLimit(1, 100);
      let release!: () => void;
      const first = limit.run(() => new Promise<string>((resolve) => (release = () => resolve('first'))));
      const late = limit.run(async () => 'late');
      const lateResult = late.catch((error: Error) => error);
      jest.advanceTimersByTime(101);
      expect(await lateResult).toBeInstanceOf(SlotWaitTimeout);
      const next = limit.run(async () => 'next');
      release();
      await expect(first).resolves.toBe('first');
      await expect(next).resolves.toBe('next');
    } finally {
      jest.useRealTimers();
    }
  });
});
