import type { FastifyInstance } from 'fastify';
import type { MetricsService } from './metrics.service';

/** Observes every response of `fastify` in http_request_duration_seconds (by method, route pattern and status). */
export function observeRequestDurations(fastify: FastifyInstance, metrics: MetricsService): void {
  // Callback-style: an async hook costs a promise per request on every path, redirects included.
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
