import type { Cache } from './cache';

/** In-process cache for the embedded default: bounded, least-recently-used eviction. */
export class MemoryCache implements Cache {
  private readonly entries = new Map<string, { value: Buffer; expiresAt: number }>();

  constructor(private readonly maxEntries = 10_000) {}

  async get(key: string): Promise<Buffer | null> {
    const entry = this.entries.get(key);
    if (!entry) return null;
    this.entries.delete(key);
    if (entry.expiresAt <= Date.now()) return null;
    this.entries.set(key, entry);
    return entry.value;
  }

  async set(key: string, value: Buffer | string, ttlSeconds: number): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, { value: Buffer.from(value), expiresAt: Date.now() + ttlSeconds * 1000 });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  async delete(...keys: string[]): Promise<void> {
    for (const key of keys) this.entries.delete(key);
  }

  async deleteByPrefix(prefix: string): Promise<void> {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
