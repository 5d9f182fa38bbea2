import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AnalyticsModule } from './analytics/analytics.module';
import { ApiKeyGuard } from './auth/api-key.guard';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { BrandKitsModule } from './brand-kits/brand-kits.module';
import { BulkModule } from './bulk/bulk.module';
import { DomainsModule } from './domains/domains.module';
import { ExportsModule } from './exports/exports.module';
import { ImportsModule } from './imports/imports.module';
import { JobsModule } from './infra/jobs/jobs.module';
import { FoldersModule } from './folders/folders.module';
import { Gs1Module } from './gs1/gs1.module';
import { HistoryModule } from './history/history.module';
import { ImagesModule } from './images/images.module';
import { QrCodesModule } from './qrcodes/qrcodes.module';
import { RedirectModule } from './redirect/redirect.module';
import { SmartLinksModule } from './smart-links';
import { ShareModule } from './share/share.module';
import { StylesModule } from './styles/styles.module';
import { TagsModule } from './tags/tags.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { APP_CONFIG, AppConfig } from './config/app-config';
import { CLOCK, type Clock, systemClock } from './common/time/clock';
import { CacheModule } from './infra/cache/cache.module';
import { ClickHouseModule } from './infra/clickhouse/clickhouse.module';
import { DatabaseModule } from './infra/database/database.module';
import { ObservabilityModule } from './infra/observability/observability.module';
import { AccountRateLimitGuard } from './infra/rate-limit/account-rate-limit.guard';
import { RateLimitModule } from './infra/rate-limit/rate-limit.module';
import { IdempotencyModule } from './infra/idempotency/idempotency.module';
import { IdempotentReplayGuard } from './infra/idempotency/idempotent-replay.guard';
import { RedisModule } from './infra/redis/redis.module';

@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, clock: Clock = systemClock): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: CLOCK, useValue: clock },
      ],
      exports: [APP_CONFIG, CLOCK],
    };
  }
}

@Module({})
export class AppModule {
  /** The whole app for a validated configuration (main.ts and the e2e tests build it the same way). */
  static forRoot(config: AppConfig, clock: Clock = systemClock): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, clock),
        ObservabilityModule,
        DatabaseModule,
        JobsModule,
        RedisModule,
        ClickHouseModule,
        CacheModule,
        RateLimitModule,
        IdempotencyModule,
        AuthModule,
        FoldersModule,
        DomainsModule,
        TagsModule,
        BrandKitsModule,
        BulkModule,
        QrCodesModule,
        ImagesModule,
        StylesModule,
        SmartLinksModule,
        RedirectModule,
        AnalyticsModule,
        WebhooksModule,
        AuditModule,
        HistoryModule,
        ImportsModule,
        ExportsModule,
        ShareModule,
        Gs1Module,
      ],
      providers: [
        // Order matters: the key decides the account, then the account's budget is charged.
        // A repeat of a completed idempotent create is found between the two, so it is not charged again.
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        { provide: APP_GUARD, useExisting: IdempotentReplayGuard },
        { provide: APP_GUARD, useClass: AccountRateLimitGuard },
      ],
    };
  }
}
