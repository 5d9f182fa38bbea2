import { Global, Module } from '@nestjs/common';
import { RedisConnection } from '../redis/redis.module';
import { AccountVersions } from './account-versions';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CACHE, Cache } from './cache';
import { MemoryCache } from './memory-cache';
import { NearCacheRegistry } from './near-cache';
import { RedisCache } from './redis-cache';

@Global()
@Module({
  providers: [
    {
      provide: CACHE,
      inject: [RedisConnection],
      useFactory: (redis: RedisConnection) => (redis.client ? new RedisCache(redis.client, (error) => redis.markDown(error)) : new MemoryCache()),
    },
    NearCacheRegistry,
    {
      provide: AccountVersions,
      inject: [CACHE, APP_CONFIG],
      useFactory: (cache: Cache, config: AppConfig) => new AccountVersions(cache, config.searchCacheSeconds),
    },
  ],
  exports: [CACHE, NearCacheRegistry, AccountVersions],
})
export class CacheModule {}
