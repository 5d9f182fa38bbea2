import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MetricsService } from './metrics.service';

/** Observes every response of `fastify` in http_request_duration_seconds (by method, route pattern and status). */
export function observeRequestDurations(fastify: FastifyInstance, metrics: MetricsService): void {
  // Callback-style: an async hook costs a promise per request on every path, redirects included.
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.httpDuration.observe(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/**
 * Observes one response in the same histogram right after it was handed to the socket, with the
 * route pattern given: for the redirect host, whose answers are small and written at once. An
 * onResponse hook there costs a 'finish' listener and a hook run per response, about 3 µs and 8 %
 * of a redirect's throughput (bench/README.md, "Where the redirect's time goes").
 */
export function observeSentResponse(metrics: MetricsService, request: FastifyRequest, reply: FastifyReply, route: string): void {
  metrics.httpDuration.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
}
