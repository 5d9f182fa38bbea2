import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/openapi/error-responses';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IDEMPOTENT_NOT_KEPT, IDEMPOTENT_ROUTE, MAX_IDEMPOTENCY_KEY_LENGTH } from './idempotency-key';

/**
 * A create route that honours the Idempotency-Key header (docs/webhooks.md, "Idempotency keys"):
 * the first request with a key runs and its response is kept 24 h for the account; the same key
 * with the same body answers that response again (`Idempotent-Replayed: true`, not charged to the
 * rate limit), with another body 422, while the first is still running 409. `notKept`: top-level
 * response fields never stored (a secret shown once): a replay answers them as null.
 */
export const Idempotent = (options: { notKept?: string[] } = {}) =>
  applyDecorators(
    SetMetadata(IDEMPOTENT_ROUTE, true),
    SetMetadata(IDEMPOTENT_NOT_KEPT, options.notKept ?? []),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Any unique value of yours (e.g. a UUID), at most 255 printable ASCII characters. ' +
        'A repeat with the same key and body within 24 h answers the first response again, with `Idempotent-Replayed: true`, and creates nothing.',
      // No example: Swagger UI would pre-fill it, and the second operation executed with the same key answers 422.
      schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, pattern: '^[\\x20-\\x7e]+$' },
    }),
    ApiErrorResponses({ 409: { description: 'A request with this Idempotency-Key is still being processed; retry shortly' }, 422: true }),
  );
