import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../common/http/error-body';

/** What a worker process answers (docs/operations.md#process-roles): its probes and its metrics. */
const WORKER_PATHS: ReadonlySet<string> = new Set(['/health/live', '/health/ready', '/metrics']);

/**
 * A worker (`ROLE=worker`) listens on PORT for its probes and /metrics only: every other request,
 * the API, the docs and the redirect host included, is a 404 in the error shape.
 */
export function answerOnlyWorkerPaths(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const path = request.url.split('?', 1)[0];
    if (WORKER_PATHS.has(path)) return done();
    void reply
      .code(404)
      .type('application/json; charset=utf-8')
      .send(errorBody(404, 'This is a worker process: it serves /health/live, /health/ready and /metrics only', request.id));
  });
}
