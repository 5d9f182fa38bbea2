import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipRateLimit } from '../rate-limit/skip-rate-limit.decorator';
import type { FastifyReply } from 'fastify';
import { Public } from '../../common/auth/public.decorator';
import { Database } from '../database/database.service';
import { RedisConnection } from '../redis/redis.module';

/** Readiness reports the database down when a probe gets no answer this fast (a dead link or a saturated pool). */
const DATABASE_PROBE_MS = 1500;

type ComponentStatus = { status: 'up' | 'down' | 'not_configured'; detail?: string };

/**
 * Liveness and readiness. Ready = the database answers: without it nothing works (503). Redis
 * down is reported but stays 200 ("degraded"): every instance shares the same Redis, and the app
 * keeps serving without it (uncached, rate limits open), so pulling instances would only hurt.
 * (Hand-written rather than @nestjs/terminus, whose any-down-means-503 rule cannot say "degraded".)
 */
@ApiExcludeController()
@Public()
@SkipRateLimit()
@Controller('health')
export class HealthController {
  constructor(
    private readonly database: Database,
    private readonly redis: RedisConnection,
  ) {}

  @Get('live')
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const [database, redis] = await Promise.all([this.checkDatabase(), this.checkRedis()]);
    const status = database.status !== 'up' ? 'down' : redis.status === 'down' ? 'degraded' : 'ok';
    reply.status(status === 'down' ? 503 : 200);
    return { status, components: { database, redis } };
  }

  private async checkDatabase(): Promise<ComponentStatus> {
    try {
      await this.database.probe(DATABASE_PROBE_MS);
      return { status: 'up' };
    } catch (error) {
      return { status: 'down', detail: describe(error) };
    }
  }

  private async checkRedis(): Promise<ComponentStatus> {
    if (!this.redis.client) return { status: 'not_configured', detail: 'in-process cache and counters' };
    try {
      await this.redis.client.ping();
      return { status: 'up' };
    } catch (error) {
      return { status: 'down', detail: describe(error) };
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0].slice(0, 200) : 'unreachable';
}
