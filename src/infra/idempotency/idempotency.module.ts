import { Global, Inject, Injectable, Module } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/time/clock';
import { HOUR_MS, JobRunner } from '../jobs/job-runner.service';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotentReplayGuard } from './idempotent-replay.guard';

/** Deletes expired keys hourly, a periodic task of the job runner (a key's row is also reused in place once it expired). */
@Injectable()
class ExpiredKeySweep {
  constructor(keys: IdempotencyRepository, @Inject(CLOCK) clock: Clock, runner: JobRunner) {
    runner.periodic({ name: 'idempotency-keys-sweep', everyMs: HOUR_MS, run: () => keys.forgetExpired(clock.now()).then(() => undefined) });
  }
}

/** Idempotency-Key support for create routes (the Idempotent decorator). */
@Global()
@Module({
  providers: [IdempotencyRepository, IdempotencyInterceptor, IdempotentReplayGuard, ExpiredKeySweep],
  exports: [IdempotencyRepository, IdempotencyInterceptor, IdempotentReplayGuard],
})
export class IdempotencyModule {}
