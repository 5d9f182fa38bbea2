import type Redis from 'ioredis';
import type { Cache } from './cache';

/** Redis-backed cache shared by every instance (a group is a hash). Failures degrade to misses (see Cache). */
export class RedisCache implements Cache {
  constructor(
    private readonly redis: Redis,
    private readonly onFailure: (error: Error) => void,
    private readonly namespace = 'cache:',
  ) {}

  async get(key: string): Promise<Buffer | null> {
    return this.redis.getBuffer(this.namespace + key).catch((error: Error) => this.fail(error, null));
  }

  async set(key: string, value: Buffer | string, ttlSeconds: number): Promise<boolean> {
    return this.redis.set(this.namespace + key, value, 'EX', ttlSeconds).then(
      () => true,
      (error: Error) => this.fail(error, false),
    );
  }

  async getMember(group: string, member: string): Promise<Buffer | null> {
    return this.redis.hgetBuffer(this.namespace + group, member).catch((error: Error) => this.fail(error, null));
  }

  async setMember(group: string, member: string, value: Buffer | string, ttlSeconds: number): Promise<boolean> {
    const key = this.namespace + group;
    return this.redis
      .multi()
      .hset(key, member, value)
      .expire(key, ttlSeconds)
      .exec()
      .then(
        (results) => !!results && results.every(([error]) => !error),
        (error: Error) => this.fail(error, false),
      );
  }

  async delete(...keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.redis.unlink(...keys.map((key) => this.namespace + key)).catch((error: Error) => this.fail(error, undefined));
  }

  private fail<T>(error: Error, fallback: T): T {
    this.onFailure(error);
    return fallback;
  }
}
