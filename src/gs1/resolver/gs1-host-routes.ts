import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../../common/http/error-body';
import type { DomainId } from '../../common/ids/resource-ids';
import type { Gs1Resolver, Resolution } from './gs1-resolver.service';
import type { ResolverAnswer } from './resolver-answer';

/** The well-known path of the resolver description file, at every resolver origin's root. */
export const GS1_DESCRIPTION_PATH = '/.well-known/gs1resolver';

const METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;

/** What the host tells the resolver about a request it hands over. */
export interface Gs1HostContext {
  /** the branded domain the request came to (null: the default host) */
  domainOf(request: FastifyRequest): { id: DomainId; hostname: string } | null;
  /** called once a redirect of a person was sent: the host records it as a scan */
  onRedirected?(request: FastifyRequest, resolution: Resolution): void;
}

/**
 * The resolver's routes on a Fastify host: under `prefix` on the default host (`/gs1/*`), and the
 * description file at the root. A branded domain's root (`/*`) is answered by `answerOnDomain`,
 * which the host calls from its own catch-all (the domain's other paths are the host's).
 */
export function registerGs1Routes(host: FastifyInstance, resolver: Gs1Resolver, prefix: string, context: Gs1HostContext): void {
  host.route({
    method: [...METHODS],
    url: `${prefix}/*`,
    exposeHeadRoute: false,
    handler: (request, reply) => answer(request, reply, resolver, context, request.url.slice(prefix.length), resolver.defaultRoot),
  });
  host.route({
    method: [...METHODS],
    url: GS1_DESCRIPTION_PATH,
    exposeHeadRoute: false,
    handler: (request, reply) => {
      const domain = context.domainOf(request);
      sendResolverAnswer(request, reply, resolver.description(domain ? `https://${domain.hostname}` : resolver.defaultRoot));
    },
  });
}

/** A branded domain's request (any path but the host's own) answered by the resolver at the domain's root. */
export function answerOnDomain(request: FastifyRequest, reply: FastifyReply, resolver: Gs1Resolver, context: Gs1HostContext, root: string) {
  return answer(request, reply, resolver, context, request.url, root);
}

function answer(request: FastifyRequest, reply: FastifyReply, resolver: Gs1Resolver, context: Gs1HostContext, pathAndQuery: string, root: string) {
  const question = pathAndQuery.indexOf('?');
  const domain = context.domainOf(request);
  const resolution = resolver.resolve({
    method: request.method,
    path: question === -1 ? pathAndQuery : pathAndQuery.slice(0, question),
    query: question === -1 ? '' : pathAndQuery.slice(question + 1),
    accept: request.headers.accept,
    acceptLanguage: request.headers['accept-language'],
    domainId: domain?.id ?? null,
    root,
  });
  const send = (settled: Resolution) => {
    sendResolverAnswer(request, reply, settled.answer);
    if (settled.item && request.method === 'GET') context.onRedirected?.(request, settled);
  };
  if (resolution instanceof Promise) return resolution.then(send);
  send(resolution);
}

export function sendResolverAnswer(request: FastifyRequest, reply: FastifyReply, answer: ResolverAnswer): void {
  reply.status(answer.status).headers(answer.headers).header('cache-control', 'no-store');
  if (answer.error !== undefined)
    reply.header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(errorBody(answer.status, answer.error, request.id)));
  else if (answer.json !== undefined) {
    if (!answer.headers['content-type']) reply.header('content-type', 'application/json; charset=utf-8');
    reply.send(JSON.stringify(answer.json));
  } else reply.send();
}
