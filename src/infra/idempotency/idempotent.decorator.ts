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
      schema: { type: 'string', maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, example: '5f0c9a9e-3f4e-4d5b-9a57-0c1d2e3f4a5b' },
    }),
    ApiErrorResponses({ 409: { description: 'A request with this Idempotency-Key is still being processed; retry shortly' }, 422: true }),
  );
