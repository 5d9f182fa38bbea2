import { Global, Module, RequestMethod } from '@nestjs/common';
import { PrometheusModule } from '@willsoto/nestjs-prometheus';
import { LoggerModule } from 'nestjs-pino';
import type { IncomingMessage } from 'node:http';
import { APP_CONFIG, AppConfig, LOG_DESTINATION } from '../../config/app-config';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/** The request's own path: middleware sees `url` relative to its mount point, `originalUrl` whole. */
const pathOf = (req: IncomingMessage) => ((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?')[0];
const isUnloggedPath = (path: string) => path === '/health/live' || path === '/metrics' || path.startsWith('/r/');

/** Header values never logged (design §11). */
export const REDACTED_PATHS = ['req.headers["x-api-key"]', 'req.headers["x-admin-token"]', 'req.headers.authorization', 'req.headers.cookie'];

@Global()
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG, LOG_DESTINATION],
      useFactory: (config: AppConfig, destination: NodeJS.WritableStream | null) => {
        const options = {
          level: config.logLevel,
          // The id Fastify assigned (assignRequestId), so logs and responses carry the same one.
          genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id?: string }).id ?? '',
          redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
          // Query strings are dropped from logged URLs: a key wrongly sent there must not be written.
          serializers: { req: (req: { id: string; method: string; url: string; headers: unknown }) => ({ id: req.id, method: req.method, url: req.url?.split('?')[0], headers: req.headers }) },
          // Scans are not request-logged: visitors' addresses would land in the logs (design §6 keeps
          // no raw IPs), and the redirect is the hottest path; metrics and scan events record them.
          autoLogging: { ignore: (req: IncomingMessage) => isUnloggedPath(pathOf(req)) },
        };
        return {
          pinoHttp: destination ? [options, destination] : options,
          // Not even a per-request child logger on the redirect host (hot path, visitors' addresses).
          exclude: [{ method: RequestMethod.ALL, path: 'r/*path' }],
        };
      },
    }),
    PrometheusModule.register({ controller: MetricsController, defaultMetrics: { enabled: true } }),
  ],
  controllers: [HealthController],
  providers: [MetricsService],
  exports: [MetricsService],
})
export class ObservabilityModule {}
