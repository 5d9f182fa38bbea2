import type { LoggerService } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pino, { type Logger } from 'pino';
import type { AppConfig } from '../../config/app-config';

/** Header values never logged (docs/api-keys-and-security.md). */
export const REDACTED_PATHS = ['req.headers["x-api-key"]', 'req.headers["x-admin-token"]', 'req.headers.authorization', 'req.headers.cookie'];

/**
 * The one pino logger of the app: Fastify logs requests with it (request id bound per request)
 * and Nest's logger writes through it. Fastify's own logger rather than an HTTP-logging
 * middleware: Nest's middleware layer costs a fifth of the hot paths' throughput.
 */
export function createAppLogger(config: AppConfig, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      // Query strings are dropped from logged URLs: a key wrongly sent there must not be written.
      req: (req: FastifyRequest) => ({ id: req.id, method: req.method, url: req.url.split('?')[0], headers: req.headers }),
      res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
    },
  };
  return destination ? pino(options, destination as pino.DestinationStream) : pino(options);
}

/** Not request-logged: scans (visitors' addresses must not land in logs; hottest path), probes, scrapes. */
const isUnloggedPath = (path: string) => path === '/health/live' || path === '/metrics' || path.startsWith('/r/');

/** One JSON line per completed request, carrying its request id. */
export function logCompletedRequests(fastify: FastifyInstance): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    if (!isUnloggedPath(request.url.split('?')[0])) {
      request.log.info({ req: request, res: reply, responseTime: Math.round(reply.elapsedTime) }, 'request completed');
    }
    done();
  });
}

/**
 * Nest's start-up chatter: a line per module and per route (some 70 lines). At info level it
 * buried what an operator must see at start (the first key's banner); at debug it is still there.
 */
const START_UP_TABLE_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Nest's LoggerService on the app's pino logger. */
export class PinoLoggerService implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    if (context !== undefined && START_UP_TABLE_CONTEXTS.has(context)) this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
