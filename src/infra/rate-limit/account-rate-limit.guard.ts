import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectThrottlerOptions, InjectThrottlerStorage, ThrottlerException, type ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import type { AuthenticatedRequest } from '../../common/auth/current-account.decorator';
import { RouteFlag } from '../../common/routing/route-flag';
import { MetricsService } from '../observability/metrics.service';
import { isAlreadyCharged } from './already-charged';
import { SKIP_RATE_LIMIT } from './skip-rate-limit.decorator';

/** Budget names: writes (create, bulk, update, delete) and reads have separate per-account budgets. */
export const WRITE_BUDGET = 'write';
export const READ_BUDGET = 'read';
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface Budget {
  name: string;
  limit: number;
  /** The window, and how long a budget used up stays blocked (milliseconds). */
  ttl: number;
}

/** What the throttler's options may hold besides the budgets: the storage. Any other option would be ignored, so it is refused. */
const SUPPORTED_MODULE_OPTIONS = new Set(['throttlers', 'storage']);
const SUPPORTED_BUDGET_OPTIONS = new Set(['name', 'limit', 'ttl']);

/**
 * Per-account rate limiting on the throttler's storage (leased from Redis when configured, so
 * limits hold across instances), composed from @nestjs/throttler's public pieces: its module
 * options (the budgets), its storage interface and its 429 exception. Each request is counted
 * once, against the one budget its method belongs to, whatever its payload (a bulk create of 50
 * codes costs one). It runs after ApiKeyGuard, so the tracker is the account, never a
 * client-supplied header. A request marked as already charged (an idempotent replay) is not
 * counted again. When the storage fails the request is let through (fail open), logged once per
 * outage and counted in metrics.
 */
@Injectable()
export class AccountRateLimitGuard implements CanActivate {
  private readonly logger = new Logger('RateLimit');
  private failing = false;
  private readonly skippedRoute: RouteFlag;
  private readonly read: Budget | undefined;
  private readonly write: Budget | undefined;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly metrics: MetricsService,
  ) {
    this.skippedRoute = new RouteFlag(reflector, SKIP_RATE_LIMIT);
    const budgets = budgetsOf(options);
    this.read = budgets.get(READ_BUDGET);
    this.write = budgets.get(WRITE_BUDGET);
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.skippedRoute.isSet(context)) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    if (isAlreadyCharged(request)) return true;
    const budget = READ_METHODS.has(request.method) ? this.read : this.write;
    if (!budget) return true;
    const tracker = request.accountId ? `account:${request.accountId}` : `ip:${request.ip}`;
    return this.charge(budget, `ratelimit:${budget.name}:${tracker}`, http.getResponse<FastifyReply>());
  }

  private async charge(budget: Budget, key: string, reply: FastifyReply): Promise<boolean> {
    const { limit, ttl, name } = budget;
    let record;
    try {
      record = await this.storage.increment(key, ttl, limit, ttl, name);
      if (this.failing) this.logger.log('Rate-limit storage is back');
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.logger.error(`Rate-limit storage failed, letting requests through: ${(error as Error).message}`);
      this.failing = true;
      this.metrics.rateLimitFailOpen.inc();
      return true;
    }
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

/**
 * The named budgets of the throttler's options. Only a numeric limit and ttl per budget are
 * read: anything else the throttler's options can say (skipIf, per-route @Throttle, custom
 * trackers, block durations) is refused at start-up rather than silently ignored.
 */
function budgetsOf(options: ThrottlerModuleOptions): Map<string, Budget> {
  const throttlers = Array.isArray(options) ? options : options.throttlers;
  if (!Array.isArray(options)) {
    const unsupported = definedKeys(options).filter((option) => !SUPPORTED_MODULE_OPTIONS.has(option));
    if (unsupported.length > 0) throw new Error(`Rate limit: only budgets and a storage are supported (got ${unsupported.join(', ')})`);
  }
  const budgets = new Map<string, Budget>();
  for (const throttler of throttlers) {
    const { name, limit, ttl } = throttler;
    const unsupported = definedKeys(throttler).filter((option) => !SUPPORTED_BUDGET_OPTIONS.has(option));
    if (typeof name !== 'string' || typeof limit !== 'number' || typeof ttl !== 'number' || unsupported.length > 0) {
      throw new Error(
        `Rate-limit budget ${name}: only a name and a numeric limit and ttl are supported ` +
          `(got ${unsupported.join(', ') || 'no name, or a non-numeric limit or ttl'})`,
      );
    }
    budgets.set(name, { name, limit, ttl });
  }
  return budgets;
}

function definedKeys(options: object): string[] {
  return Object.entries(options).flatMap(([key, value]) => (value === undefined ? [] : [key]));
}
