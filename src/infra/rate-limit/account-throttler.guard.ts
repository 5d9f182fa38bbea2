import { ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerException,
  ThrottlerGuard,
  ThrottlerModuleOptions,
  ThrottlerOptions,
  ThrottlerRequest,
  ThrottlerStorage,
} from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import type { AuthenticatedRequest } from '../../common/auth/current-account.decorator';
import { RouteFlag } from '../../common/routing/route-flag';
import { MetricsService } from '../observability/metrics.service';
import { SKIP_RATE_LIMIT } from './skip-rate-limit.decorator';

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
  private readonly skippedRoute: RouteFlag;
  /** Each budget's options, found once at start-up (onModuleInit). */
  private readonly budgets = new Map<string, ThrottlerOptions>();

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly metrics: MetricsService,
  ) {
    super(options, storage, reflector);
    this.skippedRoute = new RouteFlag(reflector, SKIP_RATE_LIMIT);
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const request = req as unknown as AuthenticatedRequest;
    return request.accountId ? `account:${request.accountId}` : `ip:${request.ip}`;
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, budget: string): string {
    return `ratelimit:${budget}:${tracker}`;
  }

  /**
   * Only the options this guard reads: a numeric limit and ttl per budget. Anything else the base
   * class would honour (skipIf, per-route @Throttle, custom trackers, block durations) is refused
   * at start-up rather than silently ignored.
   */
  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    for (const throttler of this.throttlers) {
      const { name, limit, ttl, ...rest } = throttler;
      const unsupported = Object.keys(rest).filter((option) => rest[option as keyof typeof rest] !== undefined);
      if (typeof limit !== 'number' || typeof ttl !== 'number' || unsupported.length > 0) {
        throw new Error(`Rate-limit budget ${name}: only numeric limit and ttl are supported (got ${unsupported.join(', ') || 'a non-numeric limit or ttl'})`);
      }
      if (name) this.budgets.set(name, throttler);
    }
  }

  /**
   * One budget per request, chosen by its method, and a route's SkipRateLimit read once: the base
   * class reads six decorators for each budget on every request.
   */
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.skippedRoute.isSet(context)) return true;
    const { req } = this.getRequestResponse(context);
    const throttler = this.budgets.get(READ_METHODS.has((req as { method: string }).method) ? READ_BUDGET : WRITE_BUDGET);
    if (!throttler) return true;
    const limit = throttler.limit as number;
    const ttl = throttler.ttl as number;
    const { getTracker, generateKey } = this.commonOptions;
    return this.handleRequest({ context, limit, ttl, blockDuration: ttl, throttler, getTracker: getTracker!, generateKey: generateKey! });
  }

  protected override async handleRequest({ context, limit, ttl, throttler, blockDuration, getTracker, generateKey }: ThrottlerRequest): Promise<boolean> {
    const { req, res } = this.getRequestResponse(context);
    // Only named budgets are kept (onModuleInit).
    const budget = throttler.name as string;
    const key = generateKey(context, await getTracker(req, context), budget);
    let record;
    try {
      record = await this.storageService.increment(key, ttl, limit, blockDuration, budget);
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
