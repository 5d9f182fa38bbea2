import type Redis from 'ioredis';
import type { BudgetRule, LeaseGrant, LeaseSource } from './leased-throttler-storage';

const COMMAND = 'rateLimitLease';

/**
 * Takes up to ARGV[4] hits of a fixed window at once, never beyond the limit. With one hit asked
 * for, these are the rules (and the keys) of @nest-lab/throttler-storage-redis, which this service
 * used before: count, and once past the limit block for blockDuration. So instances of both
 * versions share budgets during a deploy. Returns {granted, totalHits, timeToExpireMs, blockedForMs}.
 */
const LEASE_SCRIPT = `
local ttl = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local blockDuration = tonumber(ARGV[3])
local want = tonumber(ARGV[4])
local function windowLeft()
  local left = redis.call('PTTL', KEYS[1])
  if left <= 0 then
    redis.call('PEXPIRE', KEYS[1], ttl)
    left = ttl
  end
  return left
end
local blockedFor = redis.call('PTTL', KEYS[2])
if blockedFor > 0 then
  local total = redis.call('INCR', KEYS[1])
  return {0, total, windowLeft(), blockedFor}
end
local total = redis.call('INCRBY', KEYS[1], want)
local left = windowLeft()
if total <= limit then return {want, total, left, 0} end
local before = total - want
if before < limit then
  redis.call('DECRBY', KEYS[1], total - limit)
  return {limit - before, limit, left, 0}
end
redis.call('DECRBY', KEYS[1], want - 1)
redis.call('SET', KEYS[2], 1, 'PX', blockDuration)
return {0, before + 1, left, blockDuration}`;

type LeaseCommand = (hitsKey: string, blockKey: string, ttl: number, limit: number, blockDuration: number, want: number) => Promise<unknown>;

/** The shared budget counters in Redis; the script goes by its SHA (ioredis loads it again after a Redis restart). */
export class RedisLeaseSource implements LeaseSource {
  private readonly run: LeaseCommand;

  constructor(client: Redis) {
    client.defineCommand(COMMAND, { numberOfKeys: 2, lua: LEASE_SCRIPT });
    const command = (client as unknown as Record<string, LeaseCommand>)[COMMAND];
    this.run = command.bind(client);
  }

  async take(key: string, want: number, rule: BudgetRule): Promise<LeaseGrant> {
    const result = await this.run(`{${key}:${rule.name}}:hits`, `{${key}:${rule.name}}:blocked`, rule.ttl, rule.limit, rule.blockDuration, want);
    if (!Array.isArray(result) || result.length !== 4 || !result.every((value) => typeof value === 'number')) {
      throw new TypeError(`Unexpected rate-limit script result: ${JSON.stringify(result)}`);
    }
    const [granted, totalHits, timeToExpireMs, blockedForMs] = result;
    return { granted, totalHits, timeToExpireMs, blockedForMs };
  }
}
