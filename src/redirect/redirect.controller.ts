import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../common/auth/public.decorator';
import { SkipRateLimit } from '../infra/rate-limit/skip-rate-limit.decorator';
import { PAGE_CSP } from './landing-page';
import { RedirectService } from './redirect.service';
import { clipHeader } from './scan-event';

/** The public redirect host: what every printed dynamic code points at. */
@ApiExcludeController()
@Public()
@SkipRateLimit()
@Controller('r')
export class RedirectController {
  constructor(private readonly redirects: RedirectService) {}

  /** Fastify answers HEAD through this route too; link checkers' HEAD requests are not scans. */
  @Get(':shortCode')
  async scan(@Param('shortCode') shortCode: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const answer = await this.redirects.answer({
      shortCode,
      ip: request.ip,
      userAgent: clipHeader(request.headers['user-agent']),
      referrer: clipHeader(request.headers.referer),
      countable: request.method === 'GET',
    });
    reply.header('cache-control', 'no-store');
    if (answer.kind === 'redirect') {
      reply.redirect(answer.location, 302);
      return;
    }
    reply
      .status(answer.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', PAGE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(answer.html);
  }
}
