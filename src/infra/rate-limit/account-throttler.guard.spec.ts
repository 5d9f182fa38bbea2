import { Reflector } from '@nestjs/core';
import type { ThrottlerOptions } from '@nestjs/throttler';
import { MetricsService } from '../observability/metrics.service';
import { AccountThrottlerGuard } from './account-throttler.guard';
import { MemoryThrottlerStorage } from './memory-throttler-storage';

const guardWith = (throttlers: ThrottlerOptions[]) => new AccountThrottlerGuard({ throttlers }, new MemoryThrottlerStorage(), new Reflector(), new MetricsService());

describe('AccountThrottlerGuard options', () => {
  it('accepts budgets of a numeric limit and ttl', async () => {
    await expect(guardWith([{ name: 'write', limit: 120, ttl: 60_000 }, { name: 'read', limit: 1200, ttl: 60_000 }]).onModuleInit()).resolves.toBeUndefined();
  });

  it.each<[string, ThrottlerOptions]>([
    ['skipIf', { name: 'read', limit: 5, ttl: 1000, skipIf: () => true }],
    ['blockDuration', { name: 'read', limit: 5, ttl: 1000, blockDuration: 5000 }],
    ['ignoreUserAgents', { name: 'read', limit: 5, ttl: 1000, ignoreUserAgents: [/bot/] }],
    ['a computed limit', { name: 'read', limit: () => 5, ttl: 1000 }],
  ])('refuses %s at start-up instead of ignoring it', async (_label, throttler) => {
    await expect(guardWith([throttler]).onModuleInit()).rejects.toThrow(/only numeric limit and ttl/);
  });
});
