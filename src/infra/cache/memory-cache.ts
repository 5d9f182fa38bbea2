import type { Cache } from './cache';
import { createLru, type Lru, type LruOptions } from './lru';

/** In-process cache for the embedded default: bounded, least-recently-used eviction (a group counts as one entry). */
export class MemoryCache implements Cache {
  private readonly entries: Lru<Buffer | Map<string, Buffer>>;

  constructor(maxEntries = 10_000, clock?: LruOptions<unknown>['clock']) {
    // Every set passes its own time to live; the default only satisfies the LRU's options.
    this.entries = createLru({ max: maxEntries, ttl: 60_000, clock });
  }

  async get(key: string): Promise<Buffer | null> {
    const value = this.entries.get(key);
    return Buffer.isBuffer(value) ? value : null;
  }

  async set(key: string, value: Buffer | string, ttlSeconds: number): Promise<boolean> {
    // lru-cache reads a ttl of 0 as "never expires"; a value that should not live is not kept.
    if (ttlSeconds <= 0) this.entries.delete(key);
    else this.entries.set(key, Buffer.from(value), { ttl: ttlSeconds * 1000 });
    return true;
  }

  async getMember(group: string, member: string): Promise<Buffer | null> {
    const members = this.entries.get(group);
    return members instanceof Map ? (members.get(member) ?? null) : null;
  }

  async setMember(group: string, member: string, value: Buffer | string, ttlSeconds: number): Promise<boolean> {
    const existing = this.entries.get(group);
    const members = existing instanceof Map ? existing : new Map<string, Buffer>();
    members.set(member, Buffer.from(value));
    if (ttlSeconds <= 0) this.entries.delete(group);
    else this.entries.set(group, members, { ttl: ttlSeconds * 1000 });
    return true;
  }

  async delete(...keys: string[]): Promise<void> {
    for (const key of keys) this.entries.delete(key);
  }
}
