import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Deeper JSON than this is refused with 400 before any validation walks it (no stack overflow). */
export const MAX_JSON_DEPTH = 32;

export class JsonBodyError extends Error {
  constructor(
    message: string,
    readonly statusCode = 400,
  ) {
    super(message);
  }
}

/** Nesting depth of a JSON text, counted over brackets outside strings, without parsing it. */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92)
        i++; // backslash: skip the escaped character
      else if (ch === 34) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 || ch === 91) {
      if (++depth > limit) return true;
    } else if (ch === 125 || ch === 93) depth--;
  }
  return false;
}

export const UNSUPPORTED_MEDIA_TYPE_MESSAGE = 'Unsupported content type; send the body as application/json';

/**
 * The API's only body parser: JSON, with nesting depth bounded and problems named. Fastify's own
 * parsers (JSON and text/plain) go: a body of any other type, text/plain included, answers 415
 * before it is read, instead of reaching validation as a string.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request: FastifyRequest, _payload, done) =>
    done(new JsonBodyError(UNSUPPORTED_MEDIA_TYPE_MESSAGE, 415), undefined),
  );
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request: FastifyRequest, body: string | Buffer, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      return done(new JsonBodyError(`Request body is nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
    }
    try {
      done(null, JSON.parse(text, rejectPrototypeKeys));
    } catch (error) {
      done(error instanceof JsonBodyError ? error : new JsonBodyError('Request body is not valid JSON'), undefined);
    }
  });
}

function rejectPrototypeKeys(key: string, value: unknown): unknown {
  if (key === '__proto__' || key === 'constructor') throw new JsonBodyError(`Request body contains the forbidden key "${key}"`);
  return value;
}
