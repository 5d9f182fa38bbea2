/**
 * The error responses of the OpenAPI document: one schema (the error body every non-2xx JSON
 * response has) and one decorator that declares, per operation, the statuses it can answer, each
 * with a realistic example.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath, type HeadersObject } from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';
import type { ErrorBody } from '../http/error-body';
import type { FieldError } from '../validation/field-error';
import { REQUEST_ID_PROPERTY } from './common-views';

export class FieldErrorView implements FieldError {
  @ApiProperty({ description: 'Path of the offending input', example: 'content.url' })
  field: string;

  @ApiProperty({ example: 'content.url must be an absolute http or https URL' })
  message: string;
}

export class ErrorBodyView implements ErrorBody {
  @ApiProperty({ type: 'integer', description: 'The HTTP status', example: 400 })
  statusCode: number;

  @ApiProperty({ description: 'The status text', example: 'Bad Request' })
  error: string;

  @ApiProperty({ description: 'What went wrong, for a person', example: 'Validation failed: content.url must be an absolute http or https URL' })
  message: string;

  @ApiPropertyOptional({ type: [FieldErrorView], description: 'Validation failures only: one entry per offending field' })
  errors?: FieldErrorView[];

  @ApiProperty(REQUEST_ID_PROPERTY)
  request_id: string;
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503;

/** What an operation says about one error status; `true` takes the standard description and example. */
export interface ErrorResponseSpec {
  description?: string;
  message?: string;
  /** 400 only: the field errors of the example. */
  errors?: readonly FieldError[];
}

export type ErrorResponses = Partial<Record<ErrorStatus, true | ErrorResponseSpec>>;

const RATE_LIMIT_HEADERS: HeadersObject = {
  'Retry-After': { description: 'Seconds until the budget allows requests again', schema: { type: 'integer', example: 42 } },
  'X-RateLimit-Limit': { description: "Requests per minute in this request's budget", schema: { type: 'integer', example: 120 } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current minute', schema: { type: 'integer', example: 0 } },
  'X-RateLimit-Reset': { description: 'Seconds until the current minute ends', schema: { type: 'integer', example: 42 } },
};

const STANDARD: Record<ErrorStatus, Required<Pick<ErrorResponseSpec, 'description' | 'message'>> & ErrorResponseSpec> = {
  400: {
    description: 'Invalid input; `errors` names each offending field',
    message: 'Validation failed: name must be shorter than or equal to 100 characters',
    errors: [{ field: 'name', message: 'name must be shorter than or equal to 100 characters' }],
  },
  401: { description: 'Missing, invalid or expired API key (X-API-Key header)', message: 'Invalid API key' },
  403: { description: "The API key lacks the operation's scope (named in the message)", message: 'This API key lacks the scope qrcodes:write' },
  404: { description: 'Not found, or owned by another account', message: 'Not found' },
  409: {
    description: 'The request conflicts with the current state of the resource',
    message: 'A request with this Idempotency-Key is still being processed; retry shortly',
  },
  413: { description: 'Request body larger than 1 MiB', message: 'Request body is too large' },
  415: { description: 'Body not sent as application/json', message: 'Unsupported content type; send the body as application/json' },
  422: {
    description: 'The Idempotency-Key was used with another request body (or another endpoint) in the last 24 h',
    message: 'This Idempotency-Key was already used with a different request (body or endpoint) in the last 24 hours; use a new key',
  },
  429: {
    description: "Rate limit of the account's budget exceeded (writes and reads have separate budgets)",
    message: 'Rate limit exceeded: 120 requests per minute; retry in 42 s',
  },
  503: { description: 'The database is unreachable; retry shortly', message: 'The database is unavailable; try again shortly' },
};

/** The error body an operation answers with `status`, as the API writes it. */
export function errorExample(status: ErrorStatus, spec: ErrorResponseSpec = {}): ErrorBodyView {
  const message = spec.message ?? STANDARD[status].message;
  const errors = spec.errors ?? (status === 400 && !spec.message ? STANDARD[400].errors : undefined);
  return {
    statusCode: status,
    error: STATUS_CODES[status] ?? 'Error',
    message,
    ...(errors ? { errors: [...errors] } : {}),
    request_id: REQUEST_ID_PROPERTY.example,
  };
}

/**
 * Declares the error statuses an operation (or every operation of a controller) can answer, with
 * the shared error schema and an example each:
 * `@ApiErrorResponses({ 400: { message, errors }, 401: true, 404: { message: 'QR code not found' } })`.
 */
export function ApiErrorResponses(responses: ErrorResponses): MethodDecorator & ClassDecorator {
  const decorators = Object.entries<true | ErrorResponseSpec>(responses).map(([code, given]) => {
    const status = Number(code) as ErrorStatus;
    const spec = given === true ? {} : given;
    return ApiResponse({
      status,
      description: spec.description ?? STANDARD[status].description,
      ...(status === 429 ? { headers: RATE_LIMIT_HEADERS } : {}),
      content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorBodyView) }, example: errorExample(status, spec) } },
    });
  });
  return applyDecorators(ApiExtraModels(ErrorBodyView), ...decorators);
}

/** What every route behind the API key can answer besides its own errors. */
export const API_KEY_ROUTE_ERRORS = { 401: true, 403: true, 429: true, 503: true } as const satisfies ErrorResponses;

/** What every route that reads a JSON body can answer (Fastify refuses these before validation). */
export const JSON_BODY_ERRORS = { 413: true, 415: true } as const satisfies ErrorResponses;

/** The 400 of a path id that is not a UUID. */
export const ID_NOT_A_UUID = {
  description: 'The id is not a UUID',
  message: 'Validation failed: id must be a UUID',
  errors: [{ field: 'id', message: 'id must be a UUID' }],
} as const satisfies ErrorResponseSpec;
