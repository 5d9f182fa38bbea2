import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger, NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ValidationFailedException } from '../../common/validation/validation-failed.exception';
import type { FieldError } from '../../common/validation/field-error';
import { errorBody, ErrorBody } from '../../common/http/error-body';
import { isDatabaseUnavailable } from '../database/database-unavailable';
import { OperationLimitExceeded } from '../rate-limit/operation-limits';
import type { RouteMethods } from './route-methods';

/**
 * Turns every error into the one error body. Bad input never becomes a 500, an unreachable
 * database becomes a 503, and internals (stack, SQL, driver messages) never reach the client.
 */
const RETRY_AFTER_SECONDS = 2;

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  /** `routes`: the app's routes, to answer a known path called with another method 405 instead of 404. */
  constructor(private readonly routes?: RouteMethods) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const allowed = exception instanceof NotFoundException ? this.otherMethodsAt(request) : [];
    const body =
      allowed.length > 0
        ? errorBody(HttpStatus.METHOD_NOT_ALLOWED, `${request.method} is not allowed here; use ${allowed.join(', ')}`, request.id)
        : this.toBody(exception, request.id);
    reply.status(body.statusCode).header('content-type', 'application/json; charset=utf-8');
    if (allowed.length > 0) reply.header('allow', allowed.join(', '));
    // Unavailable for a moment (the database, or too many searches at once): say when to try again.
    if (body.statusCode === 503) reply.header('retry-after', RETRY_AFTER_SECONDS);
    if (exception instanceof OperationLimitExceeded) reply.header('retry-after', exception.retryAfterSeconds);
    // Errors thrown on non-JSON routes (images, redirects) must not keep their cache headers.
    reply.header('cache-control', 'no-store');
    reply.send(body);
  }

  /**
   * The methods the path answers when the request's method is not one of them (the router found no
   * route: a 405); [] for an unknown path or a resource the route itself did not find (a 404).
   */
  private otherMethodsAt(request: FastifyRequest): string[] {
    const path = request.url.split('?', 1)[0];
    const allowed = this.routes?.allowedAt(path) ?? [];
    return allowed.includes(request.method) ? [] : allowed;
  }

  toBody(exception: unknown, requestId: string): ErrorBody {
    if (exception instanceof ValidationFailedException) {
      return errorBody(400, exception.message, requestId, exception.fieldErrors);
    }
    if (exception instanceof HttpException) {
      // Any status may name fields (a 403 naming the scopes a key cannot grant).
      const fieldErrors = (exception as HttpException & { fieldErrors?: FieldError[] }).fieldErrors;
      return errorBody(exception.getStatus(), httpExceptionMessage(exception), requestId, Array.isArray(fieldErrors) ? fieldErrors : undefined);
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(`Database unavailable: ${(exception as Error).message}`);
      return errorBody(HttpStatus.SERVICE_UNAVAILABLE, 'The database is unavailable; try again shortly', requestId);
    }
    const clientError = fastifyClientError(exception);
    if (clientError) return errorBody(clientError.statusCode, clientError.message, requestId);
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return errorBody(HttpStatus.INTERNAL_SERVER_ERROR, 'Internal server error', requestId);
  }
}

function httpExceptionMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}

/** Errors raised by Fastify while reading the request (bad JSON, too large, bad content type). */
function fastifyClientError(exception: unknown): { statusCode: number; message: string } | null {
  const error = exception as { statusCode?: unknown; code?: unknown; message?: unknown };
  if (typeof error?.statusCode !== 'number' || error.statusCode < 400 || error.statusCode >= 500) return null;
  const messages: Record<string, string> = {
    FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is larger than 1 MiB',
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type; send application/json',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty',
  };
  const known = typeof error.code === 'string' ? messages[error.code] : undefined;
  return { statusCode: error.statusCode, message: known ?? (typeof error.message === 'string' ? error.message : 'Bad request') };
}
