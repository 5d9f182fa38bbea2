import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { RedisConnection } from '../redis/redis.module';
import { LruMap } from './lru-map';

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
  private readonly caches = new Map<string, NearCache<unknown>>();
  private subscriber: Redis | null = null;

  private readonly channel: string;

  constructor(private readonly redis: RedisConnection) {
    this.channel = `${redis.keyPrefix}${CHANNEL_SUFFIX}`;
  }

  /** The named near cache (one per kind of lookup), created on first use. */
  cache<V>(name: string, options: { maxEntries: number; ttlMs: number }): NearCache<V> {
    let cache = this.caches.get(name);
    if (!cache) {
      cache = new NearCache<unknown>(name, options, (key) => this.publish(name, key));
      this.caches.set(name, cache);
    }
    return cache as NearCache<V>;
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

export class NearCache<V> {
  private readonly entries: LruMap<V>;

  constructor(
    readonly name: string,
    private readonly options: { maxEntries: number; ttlMs: number },
    private readonly broadcast: (key: string) => Promise<void>,
  ) {
    this.entries = new LruMap(options.maxEntries);
  }

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V, ttlMs = this.options.ttlMs): void {
    this.entries.set(key, value, ttlMs);
  }

  /** Drops the key here and on every other instance. */
  async invalidate(key: string): Promise<void> {
    this.entries.delete(key);
    await this.broadcast(key);
  }

  deleteLocal(key: string): void {
    this.entries.delete(key);
  }

  clearLocal(): void {
    this.entries.clear();
  }
}
