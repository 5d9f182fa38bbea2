import { STATUS_CODES } from 'node:http';

/** An HTTP answer as the suites see it, whether it came through light-my-request or a socket. */
export interface HttpAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** What the service accepts as an incoming request id and writes as its own (X-Request-Id). */
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const ERROR_BODY_KEYS = new Set(['statusCode', 'error', 'message', 'errors', 'request_id']);
/** Stack frames, driver and framework internals: none may reach a client. */
const INTERNALS = /at .*\.(ts|js):\d+|node_modules|Prisma|SELECT |FST_ERR_|ERR_[A-Z_]{4,}/;

export function header(answer: HttpAnswer, name: string): string | undefined {
  const value = answer.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value === undefined ? undefined : String(value);
}

/** Problems with the answer's X-Request-Id header (none: it carries a valid one). */
export function requestIdProblems(answer: HttpAnswer): string[] {
  const id = header(answer, 'x-request-id');
  if (id === undefined) return ['no X-Request-Id header'];
  return REQUEST_ID.test(id) ? [] : [`X-Request-Id ${JSON.stringify(id.slice(0, 200))} is not a request id`];
}

/**
 * Problems with an error answer's shape: `{statusCode, error, message, errors?, request_id}` as
 * JSON, `request_id` equal to the X-Request-Id header, `errors` naming fields, nothing else in it
 * and no internals. An empty list means the answer is right.
 */
export function errorShapeProblems(answer: HttpAnswer): string[] {
  const problems = requestIdProblems(answer);
  const contentType = header(answer, 'content-type') ?? '';
  if (!/^application\/json\b/i.test(contentType)) problems.push(`content-type ${JSON.stringify(contentType)}, not application/json`);
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return [...problems, `body is not JSON: ${JSON.stringify(answer.body.slice(0, 200))}`];
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [...problems, 'body is not a JSON object'];
  const fields = body as Record<string, unknown>;
  if (fields.statusCode !== answer.statusCode) problems.push(`statusCode ${JSON.stringify(fields.statusCode)} in a ${answer.statusCode} answer`);
  const reason = STATUS_CODES[answer.statusCode];
  if (typeof fields.error !== 'string' || (reason !== undefined && fields.error !== reason))
    problems.push(`error ${JSON.stringify(fields.error)}, expected ${JSON.stringify(reason)}`);
  if (typeof fields.message !== 'string' || fields.message === '') problems.push('no message');
  if (typeof fields.request_id !== 'string') problems.push('no request_id');
  else if (fields.request_id !== header(answer, 'x-request-id')) problems.push('request_id differs from X-Request-Id');
  if (fields.errors !== undefined) {
    const wellFormed = Array.isArray(fields.errors) && fields.errors.every((error: unknown) => isFieldError(error));
    if (!wellFormed) problems.push(`errors is not a list of {field, message}: ${JSON.stringify(fields.errors).slice(0, 200)}`);
  }
  const extra = Object.keys(fields).filter((key) => !ERROR_BODY_KEYS.has(key));
  if (extra.length) problems.push(`unexpected keys ${extra.join(', ')}`);
  if (INTERNALS.test(answer.body)) problems.push(`internals in the body: ${JSON.stringify(answer.body.slice(0, 300))}`);
  return problems;
}

function isFieldError(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { field, message, ...rest } = error as Record<string, unknown>;
  return typeof field === 'string' && typeof message === 'string' && Object.keys(rest).length === 0;
}

/** The fields an error answer's `errors` name (empty without them). */
export function namedFields(answer: HttpAnswer): string[] {
  try {
    const errors = (JSON.parse(answer.body) as { errors?: Array<{ field?: unknown }> }).errors;
    return Array.isArray(errors) ? errors.map((error) => String(error.field)) : [];
  } catch {
    return [];
  }
}
