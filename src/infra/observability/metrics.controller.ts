import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipRateLimit } from '../rate-limit/skip-rate-limit.decorator';
import { PrometheusController } from '@willsoto/nestjs-prometheus';
import type { FastifyReply } from 'fastify';
import { Public } from '../../common/auth/public.decorator';

/** Prometheus' scrape endpoint, outside the API-key guard and the rate limits. */
@ApiExcludeController()
@Public()
@SkipRateLimit()
@Controller()
export class MetricsController extends PrometheusController {
  @Get()
  override index(@Res({ passthrough: true }) response: FastifyReply) {
    return super.index(response);
  }
}
