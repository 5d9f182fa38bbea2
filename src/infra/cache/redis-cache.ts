import type Redis from 'ioredis';
import type { Cache } from './cache';

/** Redis-backed cache shared by every instance. Failures degrade to misses (see Cache). */
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

  async delete(...keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.redis.unlink(...keys.map((key) => this.namespace + key)).catch((error: Error) => this.fail(error, undefined));
  }

  async deleteByPrefix(prefix: string): Promise<void> {
    // SCAN patterns and the keys it returns carry the client's keyPrefix; UNLINK would add it again.
    const clientPrefix = this.redis.options.keyPrefix ?? '';
    try {
      let cursor = '0';
      do {
        const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${escapeGlob(clientPrefix + this.namespace + prefix)}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length) await this.redis.unlink(...keys.map((key) => key.slice(clientPrefix.length)));
      } while (cursor !== '0');
    } catch (error) {
      this.fail(error as Error, undefined);
    }
  }

  private fail<T>(error: Error, fallback: T): T {
    this.onFailure(error);
    return fallback;
  }
}

const escapeGlob = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');

