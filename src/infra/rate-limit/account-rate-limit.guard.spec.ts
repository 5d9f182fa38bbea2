import { type ExecutionContext, HttpStatus, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerException, type ThrottlerModuleOptions, type ThrottlerOptions, type ThrottlerStorage } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import type { AccountId } from '../../common/ids/account-id';
import { MetricsService } from '../observability/metrics.service';
import { AccountRateLimitGuard, READ_BUDGET, WRITE_BUDGET } from './account-rate-limit.guard';
import { markAlreadyCharged } from './already-charged';
import { MemoryThrottlerStorage } from './memory-throttler-storage';
import { SkipRateLimit } from './skip-rate-limit.decorator';

class CodesController {
  handle(): void {}
}

@SkipRateLimit()
class HealthController {
  handle(): void {}
}

const BUDGETS: ThrottlerOptions[] = [
  { name: WRITE_BUDGET, limit: 2, ttl: 60_000 },
  { name: READ_BUDGET, limit: 20, ttl: 60_000 },
];

const metrics = new MetricsService();
const guardWith = (storage: ThrottlerStorage = new MemoryThrottlerStorage(), options: ThrottlerModuleOptions = { throttlers: BUDGETS }) =>
  new AccountRateLimitGuard(options, storage, new Reflector(), metrics);

interface Call {
  request: { method: string; ip: string; accountId?: AccountId; headers: Record<string, string> };
  headers: Record<string, unknown>;
  context: ExecutionContext;
}

function call(method: string, { accountId = 'account-a', controller = CodesController }: { accountId?: string; controller?: object } = {}): Call {
  const request = { method, ip: '10.0.0.1', accountId: accountId as AccountId, headers: { 'x-forwarded-for': '203.0.113.9' } };
  const headers: Record<string, unknown> = {};
  const reply = { header: (name: string, value: unknown) => (headers[name] = value) } as unknown as FastifyReply;
  const context = {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
    getClass: () => controller,
    getHandler: () => (controller as typeof CodesController).prototype.handle,
  } as unknown as ExecutionContext;
  return { request, headers, context };
}

class FailingStorage implements ThrottlerStorage {
  failing = true;
  readonly fallback = new MemoryThrottlerStorage();

  increment(...args: Parameters<ThrottlerStorage['increment']>): ReturnType<ThrottlerStorage['increment']> {
    return this.failing ? Promise.reject(new Error('connection refused')) : this.fallback.increment(...args);
  }
}

async function failOpenCount(): Promise<number> {
  return (await metrics.rateLimitFailOpen.get()).values[0]?.value ?? 0;
}

describe('AccountRateLimitGuard', () => {
  describe('options', () => {
    it('accepts named budgets of a numeric limit and ttl, with a storage', () => {
      expect(() => guardWith(undefined, { throttlers: BUDGETS, storage: new MemoryThrottlerStorage() })).not.toThrow();
      expect(() => guardWith(undefined, BUDGETS)).not.toThrow();
    });

    it.each<[string, ThrottlerOptions]>([
      ['skipIf', { name: 'read', limit: 5, ttl: 1000, skipIf: () => true }],
      ['blockDuration', { name: 'read', limit: 5, ttl: 1000, blockDuration: 5000 }],
      ['ignoreUserAgents', { name: 'read', limit: 5, ttl: 1000, ignoreUserAgents: [/bot/] }],
      ['a computed limit', { name: 'read', limit: () => 5, ttl: 1000 }],
      ['a budget without a name', { limit: 5, ttl: 1000 }],
    ])('refuses %s at start-up instead of ignoring it', (_label, throttler) => {
      expect(() => guardWith(undefined, { throttlers: [throttler] })).toThrow(/only a name and a numeric limit and ttl/);
    });

    it.each<[string, Partial<Exclude<ThrottlerModuleOptions, unknown[]>>]>([
      ['getTracker', { getTracker: () => 'header' }],
      ['errorMessage', { errorMessage: 'slow down' }],
      ['setHeaders', { setHeaders: false }],
    ])('refuses the module option %s at start-up', (_label, option) => {
      expect(() => guardWith(undefined, { throttlers: BUDGETS, ...option })).toThrow(/only budgets and a storage/);
    });
  });

  it('counts a read against the read budget and a write against the write budget, keyed on the account, never a header', async () => {
    const storage = new MemoryThrottlerStorage();
    const increment = jest.spyOn(storage, 'increment');
    const guard = guardWith(storage);
    await expect(guard.canActivate(call('GET').context)).resolves.toBe(true);
    await expect(guard.canActivate(call('POST').context)).resolves.toBe(true);
    await expect(guard.canActivate(call('DELETE', { accountId: 'account-b' }).context)).resolves.toBe(true);
    expect(increment.mock.calls).toEqual([
      ['ratelimit:read:account:account-a', 60_000, 20, 60_000, READ_BUDGET],
      ['ratelimit:write:account:account-a', 60_000, 2, 60_000, WRITE_BUDGET],
      ['ratelimit:write:account:account-b', 60_000, 2, 60_000, WRITE_BUDGET],
    ]);
  });

  it('reports the budget in headers and answers 429 with Retry-After once it is used up', async () => {
    const guard = guardWith();
    const first = call('POST');
    await guard.canActivate(first.context);
    expect(first.headers).toEqual({ 'X-RateLimit-Limit': 2, 'X-RateLimit-Remaining': 1, 'X-RateLimit-Reset': 60 });
    await guard.canActivate(call('PUT').context);

    const refused = call('POST');
    const error: unknown = await Promise.resolve(guard.canActivate(refused.context)).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ThrottlerException);
    expect((error as ThrottlerException).getStatus()).toBe(HttpStatus.TOO_MANY_REQUESTS);
    expect((error as ThrottlerException).message).toBe('Rate limit exceeded: 2 requests per minute; retry in 60 s');
    expect(refused.headers).toEqual({ 'X-RateLimit-Limit': 2, 'X-RateLimit-Remaining': 0, 'X-RateLimit-Reset': 60, 'Retry-After': 60 });

    const read = call('GET');
    await expect(guard.canActivate(read.context)).resolves.toBe(true);
    expect(read.headers['X-RateLimit-Remaining']).toBe(19);
  });

  it('does not count routes marked SkipRateLimit', async () => {
    const storage = new MemoryThrottlerStorage();
    const increment = jest.spyOn(storage, 'increment');
    const skipped = call('GET', { controller: HealthController });
    expect(guardWith(storage).canActivate(skipped.context)).toBe(true);
    expect(increment).not.toHaveBeenCalled();
    expect(skipped.headers).toEqual({});
  });

  it('does not count a request marked as already charged, even with the budget used up', async () => {
    const storage = new MemoryThrottlerStorage();
    const guard = guardWith(storage);
    await guard.canActivate(call('POST').context);
    await guard.canActivate(call('POST').context);
    const increment = jest.spyOn(storage, 'increment');

    const replay = call('POST');
    markAlreadyCharged(replay.request as unknown as Parameters<typeof markAlreadyCharged>[0]);
    expect(guard.canActivate(replay.context)).toBe(true);
    expect(increment).not.toHaveBeenCalled();
    expect(replay.headers).toEqual({});

    await expect(Promise.resolve(guard.canActivate(call('POST').context))).rejects.toBeInstanceOf(ThrottlerException);
    expect(increment).toHaveBeenCalledTimes(1);
  });

  it('fails open when the storage fails: logged once per outage, every request counted in metrics', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const logs = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const storage = new FailingStorage();
    const guard = guardWith(storage);
    const before = await failOpenCount();

    const during = call('POST');
    await expect(guard.canActivate(during.context)).resolves.toBe(true);
    await expect(guard.canActivate(call('GET').context)).resolves.toBe(true);
    expect(during.headers).toEqual({});
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0][0]).toMatch(/Rate-limit storage failed, letting requests through: connection refused/);
    expect((await failOpenCount()) - before).toBe(2);

    storage.failing = false;
    const after = call('POST');
    await expect(guard.canActivate(after.context)).resolves.toBe(true);
    expect(after.headers['X-RateLimit-Remaining']).toBe(1);
    expect(logs).toHaveBeenCalledWith('Rate-limit storage is back');

    storage.failing = true;
    await guard.canActivate(call('POST').context);
    expect(errors).toHaveBeenCalledTimes(2);
    errors.mockRestore();
    logs.mockRestore();
  });
});
