import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FieldError } from '../../common/validation/field-error';
import { errorBody } from '../../common/http/error-body';
import { REQUEST_ID_HEADER } from './request-id';

/**
 * Errors that happen before a request reaches a route, answered in the one error shape with a
 * request id, like every other error: Fastify's router errors (a path that is not valid
 * percent-encoding, a path parameter longer than the router allows) and Node's client errors on
 * the socket (malformed HTTP, headers too large, a request or its body too slow).
 */

/** Fastify's `frameworkErrors`: the router could not even match the path. */
export function answerFrameworkError(error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const status = tooLong ? 414 : 400;
  const message = tooLong ? 'The path is too long' : 'The path is not valid percent-encoding';
  const errors: FieldError[] = [{ field: 'path', message }];
  void reply
    .status(status)
    .header(REQUEST_ID_HEADER, request.id)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(errorBody(status, message, request.id, errors));
}

const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request (headers and body) did not arrive in time' },
  HPE_HEADER_OVERFLOW: { status: 431, message: 'The request headers are too large' },
  HPE_URI_TOO_LONG: { status: 414, message: 'The request URL is too long' },
};

/** Node's `clientError`: answered on the raw socket (no request object exists), then the socket is closed. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, message: 'The request is not valid HTTP' };
  const requestId = randomUUID();
  const body = JSON.stringify(errorBody(status, message, requestId));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${errorBody(status, '', '').error}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n${REQUEST_ID_HEADER}: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
