import { HttpException, HttpStatus, Injectable, Logger } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import { MetricsService } from '../observability/metrics.service';

/** A 429 for an operation used too often; the error filter sends its Retry-After. */
export class OperationLimitExceeded extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * Limits on costly operations beyond the per-request budgets (such as replaying a webhook's
 * deliveries), counted in the rate limiter's storage, so shared across instances through Redis.
 * Like the request budgets, it fails open when the storage fails.
 */
@Injectable()
export class OperationLimits {
  private readonly logger = new Logger('RateLimit');

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly metrics: MetricsService,
  ) {}

  /** Counts one use of `key`; throws OperationLimitExceeded past `limit` uses in `windowMs`. */
  async take(key: string, limit: number, windowMs: number, what: string): Promise<void> {
    let record;
    try {
      record = await this.storage.increment(`oplimit:${key}`, windowMs, limit, windowMs, 'operation');
    } catch (error) {
      this.logger.error(`Rate-limit storage failed, letting ${what} through: ${(error as Error).message}`);
      this.metrics.rateLimitFailOpen.inc();
      return;
    }
    if (record.isBlocked) {
      throw new OperationLimitExceeded(
        `Too many ${what}: at most ${limit} per ${Math.round(windowMs / 60_000)} minutes; retry in ${record.timeToBlockExpire} s`,
        record.timeToBlockExpire,
      );
    }
  }
}
