import { Global, Inject, Injectable, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/time/clock';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotentReplayGuard } from './idempotent-replay.guard';

const SWEEP_INTERVAL_MS = 3_600_000;

/** Deletes expired keys hourly (a key's row is also reused in place once it expired). */
@Injectable()
class ExpiredKeySweep implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Idempotency');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly keys: IdempotencyRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => {
      this.keys
        .forgetExpired(this.clock.now())
        .catch((error: Error) => this.logger.warn(`Expired idempotency keys not swept this time: ${error.message}`));
    }, SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}

/** Idempotency-Key support for create routes (the Idempotent decorator). */
@Global()
@Module({
  providers: [IdempotencyRepository, IdempotencyInterceptor, IdempotentReplayGuard, ExpiredKeySweep],
  exports: [IdempotencyRepository, IdempotencyInterceptor, IdempotentReplayGuard],
})
export class IdempotencyModule {}
