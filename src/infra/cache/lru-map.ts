interface Entry<V> {
  value: V;
  expiresAt: number;
  /** The insertion count when the entry last moved to the newest end. */
  movedAt: number;
}

/**
 * A bounded map with least-recently-used eviction and per-entry expiry. A read moves its entry to
 * the newest end only when at least half the capacity has been inserted since it last moved:
 * moving on every read (delete and re-insert) churned the Map's table on the hottest paths. An
 * entry read within the last maxEntries / 2 insertions is therefore never evicted.
 */
export class LruMap<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private insertions = 0;
  private readonly moveAfter: number;

  constructor(private readonly maxEntries: number) {
    this.moveAfter = Math.max(1, Math.floor(maxEntries / 2));
  }

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    if (this.insertions - entry.movedAt >= this.moveAfter) {
      this.entries.delete(key);
      entry.movedAt = ++this.insertions;
      this.entries.set(key, entry);
    }
    return entry.value;
  }

  set(key: string, value: V, ttlMs: number, now = Date.now()): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: now + ttlMs, movedAt: ++this.insertions });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  deleteWhere(predicate: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (predicate(key)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
