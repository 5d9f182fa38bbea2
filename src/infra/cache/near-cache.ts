import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { RedisConnection } from '../redis/redis.module';
import { createLru, type Lru, type LruOptions } from './lru';

/** Pub/sub channels are not keys (no key prefix applies), so the channel carries the prefix itself. */
const CHANNEL_SUFFIX = 'near-cache:invalidate';

/**
 * In-process caches for hot lookups (redirect targets, image metadata, API keys) that stay correct
 * across instances: an invalidation is applied locally and published on Redis, and every instance
 * drops the key. A message can be missed while Redis is unreachable, so entries also expire after
 * a short TTL, and every near cache is cleared when the subscription comes back.
 */
@Injectable()
export class NearCacheRegistry implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('NearCache');
  private readonly caches = new Map<string, NearCache<NearCacheValue>>();
  private subscriber: Redis | null = null;

  private readonly channel: string;

  constructor(private readonly redis: RedisConnection) {
    this.channel = `${redis.keyPrefix}${CHANNEL_SUFFIX}`;
  }

  /** The named near cache (one per kind of lookup), created on first use. */
  cache<V extends NearCacheValue>(name: string, options: NearCacheOptions): NearCache<V> {
    let cache = this.caches.get(name);
    if (!cache) {
      cache = new NearCache<NearCacheValue>(name, options, (key) => this.publish(name, key));
      this.caches.set(name, cache);
    }
    return cache as unknown as NearCache<V>;
  }

  async onModuleInit(): Promise<void> {
    if (!this.redis.client) return;
    const subscriber = this.redis.client.duplicate({ enableOfflineQueue: true });
    this.subscriber = subscriber;
    subscriber.on('error', (error: Error) => this.redis.markDown(error));
    let subscribedBefore = false;
    subscriber.on('ready', () => {
      // Messages published while we were disconnected are lost: start clean.
      if (subscribedBefore) for (const cache of this.caches.values()) cache.clearLocal();
      subscribedBefore = true;
    });
    subscriber.on('message', (_channel: string, message: string) => this.apply(message));
    await subscriber.subscribe(this.channel).catch((error: Error) => this.logger.warn(`Invalidation channel unavailable: ${error.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  private apply(message: string): void {
    const separator = message.indexOf('\n');
    if (separator < 0) return;
    this.caches.get(message.slice(0, separator))?.deleteLocal(message.slice(separator + 1));
  }

  private async publish(name: string, key: string): Promise<void> {
    if (!this.redis.client) return;
    await this.redis.client.publish(this.channel, `${name}\n${key}`).catch((error: Error) => this.redis.markDown(error));
  }
}

/** Anything but undefined, which get answers for a miss; null remembers an absence. */
export type NearCacheValue = NonNullable<unknown> | null;

export interface NearCacheOptions {
  maxEntries: number;
  /** How long an entry lives unless its set says otherwise: the longest a missed invalidation is served. */
  ttlMs: number;
  clock?: LruOptions<unknown>['clock'];
}

/** lru-cache holds no null values: a remembered absence (an unknown key, a missing link) is stored as this. */
const ABSENT = Symbol('absent');

export class NearCache<V extends NearCacheValue> {
  private readonly entries: Lru<NonNullable<V> | typeof ABSENT>;
  /** Counts invalidations: a value looked up before one may be stale (see `set`'s `lookedUpAt`). */
  private invalidations = 0;

  constructor(
    readonly name: string,
    options: NearCacheOptions,
    private readonly broadcast: (key: string) => Promise<void>,
  ) {
    this.entries = createLru({ max: options.maxEntries, ttl: options.ttlMs, clock: options.clock });
  }

  get(key: string): V | undefined {
    const stored = this.entries.get(key);
    return (stored === ABSENT ? null : stored) as V | undefined;
  }

  /** A mark to take before looking a value up, and to give to `set` with what the lookup found. */
  mark(): number {
    return this.invalidations;
  }

  /**
   * Keeps a value for `ttlMs`, or the cache's own time to live. With `lookedUpAt` (a `mark()` taken
   * before the lookup), a value is kept only if nothing was invalidated meanwhile: a lookup that
   * raced a change may have read the old row, and keeping it would serve the old value until it
   * expires. Rare (invalidations follow writes), and the next lookup keeps it.
   */
  set(key: string, value: V, ttlMs?: number, lookedUpAt?: number): void {
    if (lookedUpAt !== undefined && lookedUpAt !== this.invalidations) return;
    this.entries.set(key, value === null ? ABSENT : value, ttlMs === undefined ? undefined : { ttl: ttlMs });
  }

  /** Drops the key here and on every other instance. */
  async invalidate(key: string): Promise<void> {
    this.deleteLocal(key);
    await this.broadcast(key);
  }

  deleteLocal(key: string): void {
    this.invalidations++;
    this.entries.delete(key);
  }

  clearLocal(): void {
    this.invalidations++;
    this.entries.clear();
  }
}
