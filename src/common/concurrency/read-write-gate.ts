interface Waiter {
  write: boolean;
  admit: () => void;
}

/** A read that gave up waiting for a writer: it ran unguarded (see ReadWriteGate.read). */
export const UNGUARDED = Symbol('unguarded');

/**
 * Many readers at once or one writer alone, admitted in arrival order: a reader that comes while a
 * writer runs or waits goes after that writer, and a writer that comes while readers wait goes
 * after those readers. So neither a stream of reads nor a run of writes (a drain of many batches)
 * can hold the other side off.
 */
export class ReadWriteGate {
  private readers = 0;
  private writing = false;
  private readonly queue: Waiter[] = [];

  /**
   * Runs `task` as a reader. With `maxWaitMs`, a reader that a writer holds up longer runs anyway,
   * outside the gate (writers are short, so this happens only when one hangs: better a read that
   * may miss the writer's step than no read at all).
   */
  async read<T>(task: () => Promise<T>, maxWaitMs = Infinity): Promise<T> {
    if (this.writing || this.queue.length > 0) {
      if ((await this.waitForRead(maxWaitMs)) === UNGUARDED) return task();
    } else this.readers++;
    try {
      return await task();
    } finally {
      this.readers--;
      this.admit();
    }
  }

  private waitForRead(maxWaitMs: number): Promise<void | typeof UNGUARDED> {
    if (!Number.isFinite(maxWaitMs)) return this.wait(false);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        write: false,
        admit: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.queue.splice(this.queue.indexOf(waiter), 1);
        resolve(UNGUARDED);
      }, maxWaitMs);
      this.queue.push(waiter);
    });
  }

  async write<T>(task: () => Promise<T>): Promise<T> {
    if (this.writing || this.readers > 0 || this.queue.length > 0) await this.wait(true);
    else this.writing = true;
    try {
      return await task();
    } finally {
      this.writing = false;
      this.admit();
    }
  }

  private wait(write: boolean): Promise<void> {
    return new Promise((admit) => this.queue.push({ write, admit }));
  }

  /** From the head of the queue: every reader up to the next writer, or that writer once nothing runs. */
  private admit(): void {
    while (this.queue.length > 0 && !this.writing) {
      const next = this.queue[0];
      if (next.write && this.readers > 0) return;
      this.queue.shift();
      if (next.write) this.writing = true;
      else this.readers++;
      next.admit();
    }
  }
}
