import type { Cache } from './cache';
import { LruMap } from './lru-map';

/** In-process cache for the embedded default: bounded, least-recently-used eviction. */
export class MemoryCache implements Cache {
  private readonly entries: LruMap<Buffer>;

  constructor(maxEntries = 10_000) {
    this.entries = new LruMap(maxEntries);
  }

  async get(key: string): Promise<Buffer | null> {
    return this.entries.get(key) ?? null;
  }

  async set(key: string, value: Buffer | string, ttlSeconds: number): Promise<boolean> {
    this.entries.set(key, Buffer.from(value), ttlSeconds * 1000);
    return true;
  }

  async delete(...keys: string[]): Promise<void> {
    for (const key of keys) this.entries.delete(key);
  }

  async deleteByPrefix(prefix: string): Promise<void> {
    this.entries.deleteWhere((key) => key.startsWith(prefix));
  }
}
