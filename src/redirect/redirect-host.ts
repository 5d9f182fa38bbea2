import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../infra/database/database-unavailable';
import { assignRequestId, REQUEST_ID_HEADER } from '../infra/http/request-id';
import { trustProxyHops } from '../infra/http/trust-proxy';
import type { MetricsService } from '../infra/observability/metrics.service';
import { observeSentResponse } from '../infra/observability/request-durations';
import { LANDING_FILE_NAMES, type LandingFile } from './landing/landing-page';
import { ERROR_PAGE, NOT_FOUND_PAGE, UNAVAILABLE_PAGE } from './landing/status-pages';
import { clipHeader } from '../scans';
import type { Visit } from '../smart-links';
import { APP_LINK_FILES, appLinkFile, domainRootAnswer } from './domain-answers';
import type { RedirectAnswer } from './redirect-answer';
import type { RedirectService } from './redirect.service';
import { servedDomainOf } from './request-domain';
import type { ScanRecorder } from './scan-recorder';
import { type HostRoutes, sendHostPage } from './host-routes';

/** Requests under this path belong to the redirect host (the short links printed in QR codes). */
export const REDIRECT_PATH_PREFIX = '/r/';

const SCAN_ROUTE = '/r/:shortCode';
/** A password form's body: the password (at most 128 characters) and its encoding. */
const PASSWORD_FORM_LIMIT = 2048;
/** The route label of answers that matched no route (the request-duration histogram's). */
const UNMATCHED = 'unmatched';

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
 * redirect itself. Here: the request id, the request metrics (observed as each answer is sent,
 * observeSentResponse), and nothing else.
 */
export async function createRedirectHost(
  redirects: RedirectService,
  recorder: ScanRecorder,
  routes: HostRoutes,
  options: RedirectHostOptions,
): Promise<FastifyInstance> {
  const { metrics } = options;
  const host = Fastify({
    logger: false,
    trustProxy: trustProxyHops(options.trustProxy),
    genReqId: assignRequestId,
    requestIdHeader: false,
    return503OnClosing: true,
    // A path the router cannot match (bad percent-encoding, an over-long code) names no code: the 404 page.
    frameworkErrors: (_error, request, reply) => {
      sendHostPage(reply.header(REQUEST_ID_HEADER, request.id).header('cache-control', 'no-store'), 404, NOT_FOUND_PAGE);
      observeSentResponse(metrics, request, reply, UNMATCHED);
    },
  });
  // Short links take no body: whatever a client sends is not read, so it cannot fail to parse; but
  // the password form (urlencoded, small).
  host.removeAllContentTypeParsers();
  host.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  host.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  // A scan: the visit, its link's decision and answer (RedirectService.answer), the answer sent, then the scan recorded.
  // Not an async handler: a scan of a cached link is answered synchronously.
  const answerScan = (request: FastifyRequest, reply: FastifyReply, visit: Visit, answer: RedirectAnswer): void => {
    sendAnswer(request, reply, answer, SCAN_ROUTE, metrics);
    if (answer.kind !== 'file' && answer.scanOf && answer.decision) recorder.record(answer.scanOf, answer.decision, visit);
  };
  host.get<{ Params: { shortCode: string } }>(SCAN_ROUTE, (request, reply) => {
    const visit = visitOf(request);
    const answer = redirects.answer(visit);
    if (answer instanceof Promise) return answer.then((settled) => answerScan(request, reply, visit, settled));
    answerScan(request, reply, visit, answer);
  });

  // A password-protected link's form posts its password here (docs/smart-links.md#password); not a scan.
  host.post<{ Params: { shortCode: string }; Body: Record<string, string | string[] | undefined> | undefined }>(
    SCAN_ROUTE,
    { bodyLimit: PASSWORD_FORM_LIMIT },
    async (request, reply) => {
      const field = request.body?.password;
      const password = typeof field === 'string' ? field : '';
      const answer = await redirects.submitPassword(visitOf(request), password);
      sendAnswer(request, reply, answer, SCAN_ROUTE, metrics);
    },
  );

  // The files a landing page offers: downloads, not scans.
  for (const name of LANDING_FILE_NAMES) {
    const route = `${SCAN_ROUTE}/${name}`;
    host.get<{ Params: { shortCode: string } }>(route, (request, reply) => {
      const answer = redirects.download(request.params.shortCode, name, servedDomainOf(request.raw));
      if (answer instanceof Promise) return answer.then((settled) => sendAnswer(request, reply, settled, route, metrics));
      sendAnswer(request, reply, answer, route, metrics);
    });
  }

  // What capabilities add (HostRoutes): their handlers send their own answers.
  for (const route of routes.all()) {
    host.route({
      method: route.method,
      url: route.url,
      ...(route.bodyLimit === undefined ? {} : { bodyLimit: route.bodyLimit }),
      handler: async (request, reply) => {
        reply.header(REQUEST_ID_HEADER, request.id);
        await route.handler(request, reply, servedDomainOf(request.raw) ?? null);
        observeSentResponse(metrics, request, reply, route.url);
      },
    });
  }

  // App links: read by phones from a branded domain, never redirected; 404 where none are set.
  for (const path of Object.keys(APP_LINK_FILES)) {
    host.get(path, (request, reply) => {
      const file = appLinkFile(servedDomainOf(request.raw), path);
      reply.header(REQUEST_ID_HEADER, request.id).header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff');
      if (file === null) sendHostPage(reply.header('cache-control', 'no-store'), 404, NOT_FOUND_PAGE);
      else reply.status(200).header('content-type', 'application/json').send(Buffer.from(file));
      observeSentResponse(metrics, request, reply, path);
    });
  }

  // Only a branded domain's requests reach the root here (the server's host dispatch); the default host's go to the API.
  host.get('/', (request, reply) => {
    const domain = servedDomainOf(request.raw);
    sendAnswer(request, reply, domain ? domainRootAnswer(domain) : { kind: 'page', status: 404, html: NOT_FOUND_PAGE }, '/', metrics);
  });

  host.setNotFoundHandler((request, reply) => {
    sendHostPage(reply.header(REQUEST_ID_HEADER, request.id), 404, NOT_FOUND_PAGE);
    observeSentResponse(metrics, request, reply, UNMATCHED);
  });
  host.setErrorHandler((error: Error, request: FastifyRequest, reply: FastifyReply) => {
    reply.header(REQUEST_ID_HEADER, request.id).header('cache-control', 'no-store');
    sendErrorPage(error, reply, options.logger, request.id);
    observeSentResponse(metrics, request, reply, request.routeOptions.url ?? UNMATCHED);
  });

  await host.ready();
  return host;
}

function sendErrorPage(error: Error, reply: FastifyReply, logger: Logger, reqId: string): void {
  if (isDatabaseUnavailable(error)) {
    logger.warn({ reqId }, `Redirect host: database unavailable: ${error.message}`);
    sendHostPage(reply, 503, UNAVAILABLE_PAGE);
    return;
  }
  // A request Fastify refused (a bad header, a body too large): the client's mistake, not a failure.
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    sendHostPage(reply, status, NOT_FOUND_PAGE);
    return;
  }
  logger.error({ reqId, err: error }, 'Redirect host: request failed');
  sendHostPage(reply, 500, ERROR_PAGE);
}

/** A scan's (or a password post's) visit, as the redirect service reads it. */
function visitOf(request: FastifyRequest<{ Params: { shortCode: string } }>): Visit {
  return {
    shortCode: request.params.shortCode,
    ip: request.ip,
    headers: request.headers,
    query: (request.query ?? {}) as Visit['query'],
    url: request.url,
    userAgent: clipHeader(request.headers['user-agent']),
    referrer: clipHeader(request.headers.referer),
    countable: request.method === 'GET',
    domain: servedDomainOf(request.raw),
  };
}

function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: RedirectAnswer, route: string, metrics: MetricsService): void {
  reply.header(REQUEST_ID_HEADER, request.id).header('cache-control', 'no-store');
  if (answer.kind === 'redirect') {
    if (answer.cookie) reply.header('set-cookie', answer.cookie);
    reply.redirect(answer.location, answer.status ?? 302);
  } else if (answer.kind === 'file') sendFile(reply, answer.file);
  else sendHostPage(reply, answer.status, answer.html, answer.csp);
  observeSentResponse(metrics, request, reply, route);
}

function sendFile(reply: FastifyReply, file: LandingFile): FastifyReply {
  return reply
    .status(200)
    .header('content-type', file.contentType)
    .header('content-disposition', file.contentDisposition)
    .header('content-security-policy', "default-src 'none'")
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex, nofollow')
    .send(file.body);
}
