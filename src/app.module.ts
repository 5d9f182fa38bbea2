import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AnalyticsModule } from './analytics/analytics.module';
import { ApiKeyGuard } from './auth/api-key.guard';
import { AuthModule } from './auth/auth.module';
import { BulkModule } from './bulk/bulk.module';
import { FoldersModule } from './folders/folders.module';
import { ImagesModule } from './images/images.module';
import { QrCodesModule } from './qrcodes/qrcodes.module';
import { RedirectModule } from './redirect/redirect.module';
import { APP_CONFIG, AppConfig } from './config/app-config';
import { CacheModule } from './infra/cache/cache.module';
import { DatabaseModule } from './infra/database/database.module';
import { ObservabilityModule } from './infra/observability/observability.module';
import { AccountThrottlerGuard } from './infra/rate-limit/account-throttler.guard';
import { RateLimitModule } from './infra/rate-limit/rate-limit.module';
import { RedisModule } from './infra/redis/redis.module';

@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
  }
}

@Module({})
export class AppModule {
  /** The whole app for a validated configuration (main.ts and the e2e tests build it the same way). */
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        ObservabilityModule,
        DatabaseModule,
        RedisModule,
        CacheModule,
        RateLimitModule,
        AuthModule,
        FoldersModule,
        BulkModule,
        QrCodesModule,
        ImagesModule,
        RedirectModule,
        AnalyticsModule,
      ],
      providers: [
        // Order matters: the key decides the account, then the account's budget is charged.
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        { provide: APP_GUARD, useClass: AccountThrottlerGuard },
      ],
    };
  }
}
