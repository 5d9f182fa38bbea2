import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PAGE_CSP } from './landing-page';
import { RedirectService } from './redirect.service';
import { clipHeader } from './scan-event';

/**
 * The public redirect host, `GET /r/:short_code` (Fastify answers HEAD through it too; HEAD is not
 * a scan). A plain Fastify route rather than a Nest controller: it needs no API key, budget or DTO,
 * and Nest's per-request pipeline (guards, reflection, param decorators) cost most of the hot
 * path's throughput. The request id, metrics and error hooks are Fastify's and still apply.
 */
export function registerRedirectRoute(fastify: FastifyInstance, redirects: RedirectService): void {
  fastify.get<{ Params: { shortCode: string } }>('/r/:shortCode', async (request: FastifyRequest<{ Params: { shortCode: string } }>, reply: FastifyReply) => {
    const answer = await redirects.answer({
      shortCode: request.params.shortCode,
      ip: request.ip,
      userAgent: clipHeader(request.headers['user-agent']),
      referrer: clipHeader(request.headers.referer),
      countable: request.method === 'GET',
    });
    reply.header('cache-control', 'no-store');
    if (answer.kind === 'redirect') return reply.redirect(answer.location, 302);
    return reply
      .status(answer.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', PAGE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(answer.html);
  });
}
