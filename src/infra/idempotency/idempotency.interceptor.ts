import {
  type CallHandler,
  ConflictException,
  type ExecutionContext,
  Inject,
  Injectable,
  Logger,
  type NestInterceptor,
  UnprocessableEntityException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { catchError, from, mergeMap, type Observable, of, throwError } from 'rxjs';
import type { AuthenticatedRequest } from '../../common/auth/current-account.decorator';
import type { AccountId } from '../../common/ids/account-id';
import { CLOCK, type Clock } from '../../common/time/clock';
import {
  idempotencyKeyLines,
  IDEMPOTENT_NOT_KEPT,
  IDEMPOTENCY_KEY_TTL_MS,
  IDEMPOTENT_REPLAYED_HEADER,
  parseIdempotencyKey,
  requestFingerprint,
} from './idempotency-key';
import { IdempotencyRepository, type StoredKey } from './idempotency.repository';
import { replayFoundFor } from './idempotent-replay.guard';

/**
 * How long an in-flight claim holds its key before another request may take it over: far longer
 * than any request may run (HTTP and database timeouts are seconds), so only a claim whose
 * instance died is ever taken over.
 */
const CLAIM_LOCK_MS = 5 * 60_000;

/**
 * Runs an idempotent create once per key (see Idempotent). Only a completed (2xx) response is
 * kept: a request that fails created nothing, so its key is released and may be retried.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly reflector: Reflector,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const reply = http.getResponse<FastifyReply>();
    const parsed = parseIdempotencyKey(idempotencyKeyLines(request.raw.rawHeaders));
    const accountId = request.accountId;
    if (!parsed.ok || parsed.key === undefined || !accountId) return next.handle();
    const key = parsed.key;
    const found = replayFoundFor(request);
    if (found) return of(replay(reply, found));

    const fingerprint = requestFingerprint(request.method, request.url.split('?')[0], request.body);
    const claimed = await this.claimOrFind(accountId, key, fingerprint);
    if (claimed !== 'claimed') return of(replay(reply, claimed));

    const notKept = this.reflector.get<string[] | undefined>(IDEMPOTENT_NOT_KEPT, context.getHandler()) ?? [];
    return next.handle().pipe(
      mergeMap((body: unknown) => from(this.complete(accountId, key, fingerprint, reply.statusCode, body, notKept))),
      catchError((error: unknown) =>
        from(
          this.keys
            .release(accountId, key, fingerprint)
            .catch((release: Error) => this.logger.error(`Idempotency key not released: ${release.message}`)),
        ).pipe(mergeMap(() => throwError(() => error))),
      ),
    );
  }

  /** Claims the key, or answers what holds it: its completed response, 409 while it runs, 422 for another request. */
  private async claimOrFind(accountId: AccountId, key: string, fingerprint: string): Promise<'claimed' | StoredKey> {
    // Twice at most: a row that expires (or is released) between the claim and the read is claimed on the second try.
    for (let tries = 0; tries < 2; tries++) {
      const now = this.clock.now();
      if (
        await this.keys.claim(
          accountId,
          key,
          fingerprint,
          now,
          new Date(now.getTime() + CLAIM_LOCK_MS),
          new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS),
        )
      )
        return 'claimed';
      const held = await this.keys.find(accountId, key, now);
      if (!held) continue;
      if (held.fingerprint !== fingerprint) {
        throw new UnprocessableEntityException(
          'This Idempotency-Key was already used with a different request (body or endpoint) in the last 24 hours; use a new key',
        );
      }
      if (held.state === 'in_flight') throw new ConflictException('A request with this Idempotency-Key is still being processed; retry shortly');
      return held;
    }
    throw new ConflictException('A request with this Idempotency-Key is still being processed; retry shortly');
  }

  private async complete(accountId: AccountId, key: string, fingerprint: string, status: number, body: unknown, notKept: string[]): Promise<unknown> {
    const kept =
      body !== null && typeof body === 'object' && notKept.length > 0
        ? { ...body, ...Object.fromEntries(notKept.map((field) => [field, null])) }
        : body;
    try {
      await this.keys.complete(accountId, key, fingerprint, status, JSON.stringify(kept ?? null));
    } catch (error) {
      // The create itself stands and is answered; a retry with this key waits for the claim's lock (409) instead of replaying.
      this.logger.error(`Response of an idempotent request not kept: ${(error as Error).message}`);
    }
    return body;
  }
}

function replay(reply: FastifyReply, stored: StoredKey): unknown {
  reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  return JSON.parse(stored.responseBody ?? 'null');
}
