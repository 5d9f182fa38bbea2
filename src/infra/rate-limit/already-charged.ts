import type { FastifyRequest } from 'fastify';

/**
 * A request whose budget has already paid for it. An earlier guard or hook marks it (with
 * markAlreadyCharged) when it answers for a request that was counted before, such as an
 * idempotent replay of an earlier request answered from that request's stored response. The
 * rate-limit guard then lets it through without counting it again, even when the budget is used
 * up by now (the replay costs no new work), and sends no rate-limit headers, since nothing was
 * counted. Mark only requests whose original was counted.
 */
export interface ChargeableRequest extends FastifyRequest {
  rateLimitAlreadyCharged?: true;
}

export function markAlreadyCharged(request: FastifyRequest): void {
  (request as ChargeableRequest).rateLimitAlreadyCharged = true;
}

export function isAlreadyCharged(request: FastifyRequest): boolean {
  return (request as ChargeableRequest).rateLimitAlreadyCharged === true;
}
