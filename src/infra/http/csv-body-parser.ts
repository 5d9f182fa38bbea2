import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationFailedException } from '../../common/validation/validation-failed.exception';
import { JsonBodyError, UNSUPPORTED_MEDIA_TYPE_MESSAGE } from './json-body-parser';

/**
 * A text/csv body, read as UTF-8 text, for the routes listed (the CSV import) and refused (415)
 * everywhere else, as any body but JSON is. Its own size limit, above the JSON body's 1 MiB: a body
 * past it is a 400 naming `body` (the "oversized CSV"), read no further.
 */
export function registerCsvBodyParser(fastify: FastifyInstance, options: { paths: readonly string[]; limitBytes: number }): void {
  const paths = new Set(options.paths);
  const tooLarge = () =>
    new ValidationFailedException([{ field: 'body', message: `the CSV is larger than ${options.limitBytes / 1024 / 1024} MiB` }]);
  fastify.addContentTypeParser('text/csv', (request: FastifyRequest, payload, done) => {
    if (!paths.has(request.routeOptions.url ?? '')) return done(new JsonBodyError(UNSUPPORTED_MEDIA_TYPE_MESSAGE, 415), undefined);
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.limitBytes) return done(tooLarge(), undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    let finished = false;
    const finish = (error: Error | null, body?: string) => {
      if (finished) return;
      finished = true;
      done(error, body);
    };
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > options.limitBytes) {
        payload.removeAllListeners('data');
        payload.resume();
        return finish(tooLarge());
      }
      chunks.push(chunk);
    });
    payload.on('end', () => finish(null, Buffer.concat(chunks).toString('utf8')));
    payload.on('error', (error: Error) => finish(error));
  });
}
