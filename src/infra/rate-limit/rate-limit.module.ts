import { Global, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { RedisConnection } from '../redis/redis.module';
import { READ_BUDGET, WRITE_BUDGET } from './account-rate-limit.guard';
import { MemoryThrottlerStorage } from './memory-throttler-storage';
import { LeasedThrottlerStorage } from './leased-throttler-storage';
import { RedisLeaseSource } from './redis-lease-source';
import { OperationLimits } from './operation-limits';

/** Reads get this many times the write budget: listing and fetching images is cheap and frequent. */
const READ_BUDGET_FACTOR = 10;

@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, RedisConnection],
      useFactory: (config: AppConfig, redis: RedisConnection) => ({
        throttlers: [
          { name: WRITE_BUDGET, ttl: 60_000, limit: config.rateLimitPerMinute },
          { name: READ_BUDGET, ttl: 60_000, limit: config.rateLimitPerMinute * READ_BUDGET_FACTOR },
        ],
        // Shared budgets in Redis, counted locally against leases; without Redis, in process (embedded default).
        storage: redis.client ? new LeasedThrottlerStorage(new RedisLeaseSource(redis.client)) : new MemoryThrottlerStorage(),
      }),
    }),
  ],
  providers: [OperationLimits],
  exports: [OperationLimits],
})
export class RateLimitModule {}
