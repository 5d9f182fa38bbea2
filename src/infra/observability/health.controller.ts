import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipRateLimit } from '../rate-limit/skip-rate-limit.decorator';
import type { FastifyReply } from 'fastify';
import { Public } from '../../common/auth/public.decorator';
import { ClickHouseConnection } from '../clickhouse/clickhouse-connection';
import { Database } from '../database/database.service';
import { JobRunner } from '../jobs/job-runner.service';
import { RedisConnection } from '../redis/redis.module';

/** Readiness reports the database down when a probe gets no answer this fast (a dead link or a saturated pool). */
const DATABASE_PROBE_MS = 1500;

type ComponentStatus = { status: 'up' | 'down' | 'not_configured' | 'not_running'; detail?: string };

/**
 * Liveness and readiness. Ready = the database answers: without it nothing works (503). Redis
 * (or ClickHouse, when configured) down is reported but stays 200 ("degraded"): every instance shares the same Redis, and the app
 * keeps serving without it (uncached, rate limits open), so pulling instances would only hurt.
 * A process that runs jobs (ROLE=all|worker) also reports whether it can claim them; a worker that
 * cannot is not ready (503): it does nothing else.
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
    private readonly clickhouse: ClickHouseConnection,
    private readonly jobs: JobRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('live')
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const [database, redis, clickhouse] = await Promise.all([this.checkDatabase(), this.checkRedis(), this.checkClickHouse()]);
    const jobs = this.checkJobs();
    const workerDown = this.config.role === 'worker' && jobs.status !== 'up';
    const degraded = [redis, clickhouse, jobs].some((component) => component.status === 'down');
    const status = database.status !== 'up' || workerDown ? 'down' : degraded ? 'degraded' : 'ok';
    reply.status(status === 'down' ? 503 : 200);
    return { status, components: { database, redis, clickhouse, jobs } };
  }

  /** Whether this process claims jobs: `up`, `down` (its last look at the queues failed), `not_running` (an api process, or stopping). */
  private checkJobs(): ComponentStatus {
    if (!this.jobs.active) return { status: 'not_running', detail: 'ROLE=api: jobs run in the worker processes' };
    const state = this.jobs.claimState();
    if (state === 'claiming') return { status: 'up' };
    return state === 'failing' ? { status: 'down', detail: 'the last claim failed' } : { status: 'not_running', detail: 'starting or stopping' };
  }

  /** ClickHouse down is "degraded", like Redis: analytics read PostgreSQL meanwhile, and the export catches up when it is back. */
  private async checkClickHouse(): Promise<ComponentStatus> {
    if (!this.clickhouse.configured) return { status: 'not_configured', detail: 'analytics read PostgreSQL' };
    try {
      await this.clickhouse.ping(DATABASE_PROBE_MS);
      return { status: 'up' };
    } catch (error) {
      return { status: 'down', detail: describe(error) };
    }
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
