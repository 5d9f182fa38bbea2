/** A task that waited longer than it may for a free slot (the caller answers 503: busy, try again). */
export class SlotWaitTimeout extends Error {
  constructor(readonly waitedMs: number) {
    super(`no free slot within ${waitedMs} ms`);
  }
}

interface Waiter {
  admit: () => void;
  timer?: NodeJS.Timeout;
}

/**
 * Runs at most `max` tasks at once; the others wait their turn in arrival order, each for at most
 * `maxWaitMs` (then it fails with SlotWaitTimeout instead of queueing behind work that may hang).
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly max: number,
    private readonly maxWaitMs = Infinity,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`ConcurrencyLimit needs a positive integer, got ${max}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await this.wait();
    else this.running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so a newcomer can never jump the queue.
      const next = this.waiting.shift();
      if (next) {
        clearTimeout(next.timer);
        next.admit();
      } else this.running--;
    }
  }

  private wait(): Promise<void> {
    return new Promise<void>((admit, reject) => {
      const waiter: Waiter = { admit };
      if (Number.isFinite(this.maxWaitMs)) {
        waiter.timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(new SlotWaitTimeout(this.maxWaitMs));
        }, this.maxWaitMs);
      }
      this.waiting.push(waiter);
    });
  }
}
