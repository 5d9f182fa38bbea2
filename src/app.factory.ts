import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { LogController } from 'fastify';
import { AppModule } from './app.module';
import type { AppConfig } from './config/app-config';
import { AllExceptionsFilter } from './infra/http/all-exceptions.filter';
import { registerJsonBodyParser } from './infra/http/json-body-parser';
import { PrefixRouter } from './infra/http/prefix-router';
import { addRequestIdToJsonBodies, assignRequestId, REQUEST_ID_HEADER } from './infra/http/request-id';
import { trustProxyHops } from './infra/http/trust-proxy';
import { createValidationPipe } from './infra/http/validation.pipe';
import { createAppLogger, logCompletedRequests, PinoLoggerService } from './infra/observability/app-logger';
import { MetricsService } from './infra/observability/metrics.service';
import { observeRequestDurations } from './infra/observability/request-durations';
import { createRedirectHost, REDIRECT_PATH_PREFIX } from './redirect/redirect-host';
import { RedirectService } from './redirect/redirect.service';

/** 1 MiB: a bulk request of 50 codes with logos fits (design §9). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Builds the fully configured app (not yet listening). */
export interface CreateAppOptions {
  /** false: no Nest logger output (tests). */
  logger?: boolean;
  /** Where the JSON request logs go instead of stdout (tests read them). */
  logDestination?: NodeJS.WritableStream;
}

export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = createAppLogger(config, options.logDestination);
  // One port for the API and the redirect host, which is a Fastify instance of its own (redirect-host.ts).
  const router = new PrefixRouter();
  const adapter = new FastifyAdapter({
    serverFactory: router.serverFor,
    loggerInstance: logger,
    // logCompletedRequests writes one line per request, except for scans, probes and scrapes.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    // Believe X-Forwarded-For only across the configured number of proxy hops.
    trustProxy: trustProxyHops(config.trustProxy),
    genReqId: assignRequestId,
    // Fastify would otherwise reuse any incoming header unchecked; assignRequestId validates it.
    requestIdHeader: false,
    return503OnClosing: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    bufferLogs: true,
    abortOnError: false,
    // registerJsonBodyParser installs the one JSON parser (depth-bounded).
    bodyParser: false,
  });
  app.useLogger(options.logger === false ? false : new PinoLoggerService(logger));

  const fastify = app.getHttpAdapter().getInstance();
  registerJsonBodyParser(fastify);
  addRequestIdToJsonBodies(fastify);
  logCompletedRequests(fastify);
  // Callback-style hooks: an async hook costs a promise per request on every path, redirects included.
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  const metrics = app.get(MetricsService);
  observeRequestDurations(fastify, metrics);

  const redirectHost = await createRedirectHost(app.get(RedirectService), { trustProxy: config.trustProxy, logger, metrics });
  router.mount(REDIRECT_PATH_PREFIX, redirectHost.routing);
  fastify.addHook('preClose', (done) => {
    router.unmountAll();
    done();
  });
  fastify.addHook('onClose', () => redirectHost.close());

  const filter = new AllExceptionsFilter();
  app.useGlobalFilters(filter);
  app.useGlobalPipes(createValidationPipe());
  setUpSwagger(app, config);
  await app.init();
  return app;
}

function setUpSwagger(app: NestFastifyApplication, config: AppConfig): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('QR code management API')
      .setDescription(
        'Create, style, render, track and manage static and dynamic QR codes. Authenticate every `/api/v1` call with the `X-API-Key` header.',
      )
      .setVersion('1')
      .addServer(config.baseUrl)
      .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'api-key')
      .addSecurityRequirements('api-key')
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', swaggerOptions: { persistAuthorization: true } });
}
