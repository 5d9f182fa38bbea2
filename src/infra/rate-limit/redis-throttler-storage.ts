import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';

const COMMAND = 'throttlerIncrement';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

type ScriptResult = [totalHits: number, timeToExpireMs: number, isBlocked: number, timeToBlockExpireMs: number];

/**
 * The library's Redis storage and script, sent by its SHA (EVALSHA through ioredis' defineCommand,
 * which loads the script again after a Redis restart) instead of as 1 KB of script text with every
 * request.
 */
export class RedisThrottlerStorage extends ThrottlerStorageRedisService {
  constructor(private readonly client: Redis) {
    super(client);
    client.defineCommand(COMMAND, { numberOfKeys: 2, lua: this.scriptSrc });
  }

  override async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    // The library's key layout, so limits carry over between versions of this service.
    const run = (this.client as unknown as Record<string, (...args: Array<string | number>) => Promise<unknown>>)[COMMAND];
    const result = await run.call(this.client, `{${key}:${throttlerName}}:hits`, `{${key}:${throttlerName}}:blocked`, throttlerName, ttl, limit, blockDuration);
    if (!Array.isArray(result) || result.length !== 4 || !result.every((value) => typeof value === 'number')) {
      throw new TypeError(`Unexpected rate-limit script result: ${JSON.stringify(result)}`);
    }
    const [totalHits, timeToExpireMs, isBlocked, timeToBlockExpireMs] = result as ScriptResult;
    return {
      totalHits,
      timeToExpire: Math.ceil(timeToExpireMs / 1000),
      isBlocked: isBlocked === 1,
      timeToBlockExpire: Math.ceil(timeToBlockExpireMs / 1000),
    };
  }
}
