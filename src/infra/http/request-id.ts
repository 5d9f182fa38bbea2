import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** An incoming id is reused only when it is short and made of safe characters (it ends up in logs). */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's genReqId: the single place where a request's id is decided. The id is also put on the
 * raw request so that the HTTP logger (pino-http, which sees only the raw request) logs the same id.
 */
export function assignRequestId(raw: IncomingMessage): string {
  const incoming = raw.headers[REQUEST_ID_HEADER];
  const id = typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  (raw as IncomingMessage & { id?: string }).id = id;
  return id;
}

/**
 * Adds `request_id` to every JSON object body (docs/errors.md). A Fastify preSerialization hook rather
 * than a Nest interceptor: any global interceptor puts every request, redirects included, through
 * rxjs and AsyncResource.bind, which cost a large share of the hot paths' throughput.
 */
export function addRequestIdToJsonBodies(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', async (request: FastifyRequest, _reply, payload: unknown) =>
    payload !== null && typeof payload === 'object' && !Array.isArray(payload) && !Buffer.isBuffer(payload) && !('request_id' in payload)
      ? { ...payload, request_id: request.id }
      : payload,
  );
}
