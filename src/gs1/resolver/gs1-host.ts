import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { errorBody } from '../../common/http/error-body';
import type { DomainId } from '../../common/ids/resource-ids';
import { isDatabaseUnavailable } from '../../infra/database/database-unavailable';
import { assignRequestId, REQUEST_ID_HEADER } from '../../infra/http/request-id';
import { trustProxyHops } from '../../infra/http/trust-proxy';
import type { MetricsService } from '../../infra/observability/metrics.service';
import { observeSentResponse } from '../../infra/observability/request-durations';
import { PRIMARY_KEY_BY_AI } from '../syntax/ai-dictionary';
import { decompressPath, looksCompressed } from '../syntax/compression';
import type { Gs1Resolver, Resolution } from './gs1-resolver.service';
import { CORS_HEADERS, type ResolverAnswer } from './resolver-answer';

/** The resolver description file, at the root of every origin the resolver answers on. */
export const GS1_DESCRIPTION_PATH = '/.well-known/gs1resolver';

/** The route labels of the request-duration histogram. */
const RESOLVE_ROUTE = 'gs1-resolver';
const METHODS = ['GET', 'HEAD', 'OPTIONS'];

export interface Gs1HostOptions {
  /** GS1_PATH_PREFIX: the resolver's root on the default host */
  prefix: string;
  trustProxy: number;
  logger: Logger;
  metrics: MetricsService;
  /** the branded domain a request was dispatched for (null: the default redirect host) */
  domainOf(request: FastifyRequest): { id: DomainId; hostname: string } | null;
  /** a person was sent to a link (a GET redirect, once sent): the scan to record */
  onRedirected?(request: FastifyRequest, resolution: Resolution): void;
}

/** The first segment of a Digital Link path: a primary key's AI (`01`, `414`, …) or its Digital Link 1.1 alpha (`gtin`). */
const KEY_SEGMENT = new RegExp(
  `^/(${[...PRIMARY_KEY_BY_AI.keys()].join('|')}|${[...PRIMARY_KEY_BY_AI.values()].map((key) => key.alpha).join('|')})/`,
);

/**
 * Whether a branded domain's request is the resolver's: a Digital Link path (`/01/…`, `/gtin/…`),
 * a compressed one (a single segment that decompresses), or the description file. The domain's
 * other paths (`/`, `/r/…`, anything else) stay with the redirect host.
 */
export function isResolverPath(url: string): boolean {
  if (url.startsWith(GS1_DESCRIPTION_PATH) || KEY_SEGMENT.test(url)) return true;
  const question = url.indexOf('?');
  const path = question === -1 ? url : url.slice(0, question);
  return looksCompressed(path) && decompressPath(path, '') !== null;
}

/**
 * The GS1 resolver's own lean Fastify instance, like the redirect host's (no Nest hooks on the hot
 * path): the app's server hands it `<prefix>/…` and `/.well-known/gs1resolver` on the default host,
 * and a branded domain's Digital Link paths (isResolverPath).
 */
export async function createGs1Host(resolver: Gs1Resolver, options: Gs1HostOptions): Promise<FastifyInstance> {
  const host = Fastify({
    logger: false,
    trustProxy: trustProxyHops(options.trustProxy),
    genReqId: assignRequestId,
    requestIdHeader: false,
    return503OnClosing: true,
    frameworkErrors: (_error, request, reply) => {
      send(request, reply, { status: 400, headers: { ...CORS_HEADERS }, error: 'The request is not a valid GS1 Digital Link URI' });
      observeSentResponse(options.metrics, request, reply, RESOLVE_ROUTE);
    },
  });
  host.removeAllContentTypeParsers();
  host.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  host.route({ method: METHODS, url: GS1_DESCRIPTION_PATH, exposeHeadRoute: false, handler: (request, reply) => describe(request, reply) });
  host.route({ method: METHODS, url: '/*', exposeHeadRoute: false, handler: (request, reply) => resolve(request, reply) });

  function describe(request: FastifyRequest, reply: FastifyReply): void {
    const domain = options.domainOf(request);
    send(request, reply, resolver.description(domain ? domainRoot(request) : resolver.defaultRoot));
    observeSentResponse(options.metrics, request, reply, GS1_DESCRIPTION_PATH);
  }

  function resolve(request: FastifyRequest, reply: FastifyReply): void | Promise<void> {
    const domain = options.domainOf(request);
    // On the default host the resolver lives under the prefix; on a branded domain at the root.
    const below = domain ? request.url : request.url.slice(options.prefix.length);
    const question = below.indexOf('?');
    const resolution = resolver.resolve({
      method: request.method,
      path: question === -1 ? below : below.slice(0, question),
      query: question === -1 ? '' : below.slice(question + 1),
      accept: request.headers.accept,
      acceptLanguage: request.headers['accept-language'],
      domainId: domain?.id ?? null,
      root: domain ? domainRoot(request) : resolver.defaultRoot,
    });
    const answer = (settled: Resolution) => {
      send(request, reply, settled.answer);
      observeSentResponse(options.metrics, request, reply, RESOLVE_ROUTE);
      if (settled.item && request.method === 'GET') options.onRedirected?.(request, settled);
    };
    if (resolution instanceof Promise) return resolution.then(answer);
    answer(resolution);
  }

  host.setErrorHandler((error: Error, request: FastifyRequest, reply: FastifyReply) => {
    const unavailable = isDatabaseUnavailable(error);
    if (!unavailable) options.logger.error({ reqId: request.id, err: error }, 'GS1 resolver: request failed');
    send(request, reply, {
      status: unavailable ? 503 : 500,
      headers: { ...CORS_HEADERS, ...(unavailable ? { 'retry-after': '5' } : {}) },
      error: unavailable ? 'The database is unavailable; try again shortly' : 'Internal server error',
    });
    observeSentResponse(options.metrics, request, reply, RESOLVE_ROUTE);
  });

  await host.ready();
  return host;
}

/**
 * A branded domain's resolver root as the client reached it: HTTPS (Caddy terminates TLS for every
 * domain) and the host it asked for, a port included, so that anchors and links are the URIs it used.
 */
const domainRoot = (request: FastifyRequest): string => `https://${request.host}`;

function send(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: ResolverAnswer | { status: number; headers: Record<string, string>; error: string },
): void {
  reply.status(answer.status).headers(answer.headers).header(REQUEST_ID_HEADER, request.id).header('cache-control', 'no-store');
  if ('error' in answer && answer.error !== undefined) {
    reply.header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(errorBody(answer.status, answer.error, request.id)));
  } else if ('json' in answer && answer.json !== undefined) {
    // A Buffer: Fastify would add a charset to a string's media type (application/linkset+json has none).
    reply.header('content-type', answer.headers['content-type'] ?? 'application/json; charset=utf-8').send(Buffer.from(JSON.stringify(answer.json)));
  } else reply.send();
}
