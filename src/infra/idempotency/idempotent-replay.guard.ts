import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AuthenticatedRequest } from '../../common/auth/current-account.decorator';
import { RouteFlag } from '../../common/routing/route-flag';
import { CLOCK, type Clock } from '../../common/time/clock';
import { ValidationFailedException } from '../../common/validation/validation-failed.exception';
import { markAlreadyCharged } from '../rate-limit/already-charged';
import { IDEMPOTENT_ROUTE, idempotencyKeyLines, parseIdempotencyKey, requestFingerprint } from './idempotency-key';
import { IdempotencyRepository, type StoredKey } from './idempotency.repository';

interface ReplayingRequest extends AuthenticatedRequest {
  idempotentReplay?: StoredKey;
}

/** The completed response this request repeats, found by IdempotentReplayGuard. */
export const replayFoundFor = (request: AuthenticatedRequest): StoredKey | undefined => (request as ReplayingRequest).idempotentReplay;

/**
 * Runs between the API-key guard and the rate-limit guard on idempotent routes: checks the
 * Idempotency-Key header (400 naming it when malformed) and, when the key already holds the
 * completed response of this same request, marks the request as already charged, so the replay
 * passes the rate limit uncounted (its original was counted). Everything else (claiming the key,
 * 409, 422) is the interceptor's, after the request was charged.
 */
@Injectable()
export class IdempotentReplayGuard implements CanActivate {
  private readonly idempotentRoute: RouteFlag;

  constructor(
    reflector: Reflector,
    private readonly keys: IdempotencyRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.idempotentRoute = new RouteFlag(reflector, IDEMPOTENT_ROUTE);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.idempotentRoute.isSet(context)) return true;
    const request = context.switchToHttp().getRequest<ReplayingRequest>();
    const parsed = parseIdempotencyKey(idempotencyKeyLines(request.raw.rawHeaders));
    if (!parsed.ok) throw new ValidationFailedException([parsed.error]);
    if (parsed.key === undefined || !request.accountId) return true;
    const stored = await this.keys.find(request.accountId, parsed.key, this.clock.now());
    if (stored?.state === 'completed' && stored.fingerprint === requestFingerprint(request.method, request.url.split('?')[0], request.body)) {
      request.idempotentReplay = stored;
      markAlreadyCharged(request);
    }
    return true;
  }
}
