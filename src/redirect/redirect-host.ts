import Fastify, { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../infra/database/database-unavailable';
import { assignRequestId, REQUEST_ID_HEADER } from '../infra/http/request-id';
import { trustProxyHops } from '../infra/http/trust-proxy';
import type { MetricsService } from '../infra/observability/metrics.service';
import { observeRequestDurations } from '../infra/observability/request-durations';
import { errorPage, notFoundPage, PAGE_CSP, unavailablePage } from './landing-page';
import { RedirectAnswer, RedirectService } from './redirect.service';
import { clipHeader } from './scan-event';

/** Requests under this path belong to the redirect host (the short links printed in QR codes). */
export const REDIRECT_PATH_PREFIX = '/r/';

export interface RedirectHostOptions {
  /** Hops across which X-Forwarded-For is believed (TRUST_PROXY): the visitor's address feeds the visitor hash. */
  trustProxy: number;
  logger: Logger;
  metrics: MetricsService;
}

/**
 * The public redirect host, `GET /r/:short_code` (HEAD is answered too, and is not a scan), as its
 * own Fastify instance: the app's server hands it every request under /r/ (createApp). Scans are
 * the hottest path, and on the API's instance every request also runs Nest's hooks, its
 * middleware runner, a child logger and the request log hook, which together cost more than the
 * redirect itself. Here: the request id, the request metrics, and nothing else.
 */
export async function createRedirectHost(redirects: RedirectService, options: RedirectHostOptions): Promise<FastifyInstance> {
  const host = Fastify({
    logger: false,
    trustProxy: trustProxyHops(options.trustProxy),
    genReqId: assignRequestId,
    requestIdHeader: false,
    return503OnClosing: true,
  });
  observeRequestDurations(host, options.metrics);

  // Not an async handler: a scan of a cached link is answered synchronously (see RedirectService.answer).
  host.get<{ Params: { shortCode: string } }>('/r/:shortCode', (request, reply) => {
    const answer = redirects.answer({
      shortCode: request.params.shortCode,
      ip: request.ip,
      userAgent: clipHeader(request.headers['user-agent']),
      referrer: clipHeader(request.headers.referer),
      countable: request.method === 'GET',
    });
    if (answer instanceof Promise) return answer.then((settled) => sendAnswer(request, reply, settled));
    sendAnswer(request, reply, answer);
  });

  host.setNotFoundHandler((request, reply) => sendPage(reply.header(REQUEST_ID_HEADER, request.id), 404, notFoundPage()));
  host.setErrorHandler((error: Error, request: FastifyRequest, reply: FastifyReply) => {
    reply.header(REQUEST_ID_HEADER, request.id).header('cache-control', 'no-store');
    if (isDatabaseUnavailable(error)) {
      options.logger.warn({ reqId: request.id }, `Redirect host: database unavailable: ${error.message}`);
      return sendPage(reply, 503, unavailablePage());
    }
    options.logger.error({ reqId: request.id, err: error }, 'Redirect host: request failed');
    return sendPage(reply, 500, errorPage());
  });

  await host.ready();
  return host;
}

function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: RedirectAnswer): void {
  reply.header(REQUEST_ID_HEADER, request.id).header('cache-control', 'no-store');
  if (answer.kind === 'redirect') reply.redirect(answer.location, 302);
  else sendPage(reply, answer.status, answer.html);
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', PAGE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(html);
}
