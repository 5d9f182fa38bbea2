import { ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerException,
  ThrottlerGuard,
  ThrottlerModuleOptions,
  ThrottlerRequest,
  ThrottlerStorage,
} from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import type { AuthenticatedRequest } from '../../common/auth/current-account.decorator';
import { MetricsService } from '../observability/metrics.service';

/** Budget names: writes (create, bulk, update, delete) and reads have separate per-account budgets. */
export const WRITE_BUDGET = 'write';
export const READ_BUDGET = 'read';
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Per-account rate limiting on the throttler's storage (Redis when configured, so limits hold
 * across instances). Each request is counted once, against the one budget its method belongs to,
 * whatever its payload (a bulk create of 50 codes costs one). It runs after ApiKeyGuard, so the
 * tracker is the account, never a client-supplied header. When the storage fails the request is
 * let through (fail open), logged once per outage and counted in metrics.
 */
@Injectable()
export class AccountThrottlerGuard extends ThrottlerGuard {
  protected override readonly logger = new Logger('RateLimit');
  private failing = false;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly metrics: MetricsService,
  ) {
    super(options, storage, reflector);
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const request = req as unknown as AuthenticatedRequest;
    return request.accountId ? `account:${request.accountId}` : `ip:${request.ip}`;
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, budget: string): string {
    return `ratelimit:${budget}:${tracker}`;
  }

  protected override async handleRequest({ context, limit, ttl, throttler, blockDuration, getTracker, generateKey }: ThrottlerRequest): Promise<boolean> {
    const { req, res } = this.getRequestResponse(context);
    const isRead = READ_METHODS.has((req as { method: string }).method);
    if ((throttler.name === READ_BUDGET) !== isRead) return true;

    const key = generateKey(context, await getTracker(req, context), throttler.name ?? WRITE_BUDGET);
    let record;
    try {
      record = await this.storageService.increment(key, ttl, limit, blockDuration, throttler.name ?? WRITE_BUDGET);
      if (this.failing) this.logger.log('Rate-limit storage is back');
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.logger.error(`Rate-limit storage failed, letting requests through: ${(error as Error).message}`);
      this.failing = true;
      this.metrics.rateLimitFailOpen.inc();
      return true;
    }
    const reply = res as FastifyReply;
    reply.header('X-RateLimit-Limit', limit);
    reply.header('X-RateLimit-Remaining', Math.max(0, limit - record.totalHits));
    reply.header('X-RateLimit-Reset', record.isBlocked ? record.timeToBlockExpire : record.timeToExpire);
    if (record.isBlocked) {
      reply.header('Retry-After', record.timeToBlockExpire);
      throw new ThrottlerException(`Rate limit exceeded: ${limit} requests per minute; retry in ${record.timeToBlockExpire} s`);
    }
    return true;
  }
}
