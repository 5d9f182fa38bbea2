import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

/**
 * The shared Redis connection when REDIS_URL is set (null otherwise). No offline queue and a short
 * command timeout: while Redis is down commands fail at once, and callers degrade (no cache, rate
 * limit fails open) instead of hanging. An outage is logged once when it starts and once when it
 * ends, not per command.
 */
const BACKGROUND_COMMAND_TIMEOUT_MS = 3000;

@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  readonly client: Redis | null;
  readonly keyPrefix: string;
  private readonly logger = new Logger('Redis');
  private down = false;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.keyPrefix = config.redisKeyPrefix;
    this.client = config.redisUrl ? createRedisClient(config.redisUrl, config.redisKeyPrefix) : null;
    this.client?.on('error', (error: Error) => this.markDown(error));
    this.client?.on('ready', () => this.markUp());
    this.background = this.client?.duplicate({ commandTimeout: BACKGROUND_COMMAND_TIMEOUT_MS, enableOfflineQueue: true }) ?? null;
    this.background?.on('error', (error: Error) => this.markDown(error));
  }

  /**
   * A second connection for background work (staging and draining scans), more patient than the
   * request paths' (a batch of 5,000 scans takes longer to send than a request may wait), and still
   * bounded: shutdown and the drain never wait longer than BACKGROUND_COMMAND_TIMEOUT_MS a command.
   */
  readonly background: Redis | null;

  /** True while Redis is configured and connected. */
  get available(): boolean {
    return this.client?.status === 'ready';
  }

  markDown(error: Error): void {
    if (this.down) return;
    this.down = true;
    this.logger.error(`Redis unreachable, degrading (no cache, rate limits fail open): ${error.message}`);
  }

  private markUp(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.log('Redis is reachable again');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.background?.quit().catch(() => this.background?.disconnect());
    await this.client?.quit().catch(() => this.client?.disconnect());
  }
}

export function createRedisClient(url: string, keyPrefix: string): Redis {
  return new Redis(url, {
    keyPrefix,
    // Commands issued in the same event-loop turn go out in one socket write, not one each.
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    commandTimeout: 500,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
}

@Global()
@Module({ providers: [RedisConnection], exports: [RedisConnection] })
export class RedisModule {}
