/**
 * Many readers at once or one writer alone. Writers run one after another, each once the readers
 * that started before it have finished; readers that arrive while a writer waits or runs go after
 * it, so a steady stream of reads cannot hold a writer off.
 */
export class ReadWriteGate {
  private activeReaders = 0;
  private readonly readersDone: Array<() => void> = [];
  /** Settles when every writer queued so far has finished; null when none is queued. */
  private writers: Promise<void> | null = null;

  async read<T>(task: () => Promise<T>): Promise<T> {
    while (this.writers) await this.writers;
    this.activeReaders++;
    try {
      return await task();
    } finally {
      if (--this.activeReaders === 0) for (const done of this.readersDone.splice(0)) done();
    }
  }

  write<T>(task: () => Promise<T>): Promise<T> {
    const run = (this.writers ?? Promise.resolve()).then(async () => {
      if (this.activeReaders > 0) await new Promise<void>((resolve) => this.readersDone.push(resolve));
      return task();
    });
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.writers = settled;
    void settled.then(() => {
      if (this.writers === settled) this.writers = null;
    });
    return run;
  }
}
