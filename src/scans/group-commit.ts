interface Tick<T> {
  items: T[];
  done: Promise<void>;
  release: () => void;
}

/**
 * Group commit (docs/scans-and-privacy.md#durable-before-acknowledged): items added in one turn of
 * the event loop form a tick, committed together by one call of `commit`; each `add` returns its
 * tick's promise, which settles once that commit has ended, failed or not (the caller learns
 * nothing of the outcome: `commit` handles its own failures). One commit runs at a time; items
 * added meanwhile wait for it and go together in the next, so that no item waits for a write of
 * its own and a slow write makes ticks larger, not more numerous.
 */
export class GroupCommit<T> {
  private open: Tick<T> | null = null;
  private inFlight: Promise<void> | null = null;

  constructor(private readonly commit: (items: T[]) => Promise<void>) {}

  add(item: T): Promise<void> {
    if (!this.open) {
      let release!: () => void;
      const done = new Promise<void>((resolve) => (release = resolve));
      this.open = { items: [], done, release };
      // The rest of this turn's requests join the tick; one in flight starts the next as it ends.
      if (!this.inFlight) setImmediate(() => this.run());
    }
    this.open.items.push(item);
    return this.open.done;
  }

  /** Waits until every item added so far has been committed. */
  async settled(): Promise<void> {
    while (this.inFlight || this.open) await (this.inFlight ?? this.open?.done);
  }

  /** Takes the items of the tick not yet started (the shutdown's last resort writes them itself); their adds settle. */
  takeOpen(): T[] {
    const tick = this.open;
    this.open = null;
    tick?.release();
    return tick?.items ?? [];
  }

  private run(): void {
    const tick = this.open;
    if (!tick || this.inFlight) return;
    this.open = null;
    this.inFlight = this.commit(tick.items)
      .catch(() => undefined)
      .finally(() => {
        this.inFlight = null;
        tick.release();
        this.run();
      });
  }
}
