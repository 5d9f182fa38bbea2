import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { LogController } from 'fastify';
import type { RequestListener } from 'node:http';
import { AppModule } from './app.module';
import type { AppConfig } from './config/app-config';
import type { Clock } from './common/time/clock';
import { AllExceptionsFilter } from './infra/http/all-exceptions.filter';
import { registerJsonBodyParser } from './infra/http/json-body-parser';
import { registerCsvBodyParser } from './infra/http/csv-body-parser';
import { MAX_IMPORT_BYTES } from './imports/csv-file';
import { PrefixRouter } from './infra/http/prefix-router';
import { RouteMethods } from './infra/http/route-methods';
import { addRequestIdToJsonBodies, assignRequestId, REQUEST_ID_HEADER } from './infra/http/request-id';
import { enterRequestContexts } from './infra/http/request-context';
import { trustProxyHops } from './infra/http/trust-proxy';
import { AppValidationPipe } from './infra/http/validation.pipe';
import { answerClientError, answerFrameworkError } from './infra/http/client-errors';
import { parseQueryString } from './infra/http/query-string';
import { createAppLogger, logCompletedRequests, PinoLoggerService } from './infra/observability/app-logger';
import { buildOpenApiDocument } from './infra/openapi/openapi-document';
import { MetricsService } from './infra/observability/metrics.service';
import { observeRequestDurations } from './infra/observability/request-durations';
import { createRedirectHost, REDIRECT_PATH_PREFIX } from './redirect/redirect-host';
import { HostRoutes } from './redirect/host-routes';
import { RedirectService } from './redirect/redirect.service';
import { ScanRecorder } from './redirect/scan-recorder';
import { DomainHosts } from './domains';
import { dispatchByHost } from './redirect/host-dispatch';
import { servedDomainOf } from './redirect/request-domain';
import { createGs1Host, GS1_DESCRIPTION_PATH, isResolverPath } from './gs1/resolver/gs1-host';
import { Gs1Resolver } from './gs1/resolver/gs1-resolver.service';
import { GS1_LINK_IMPORT_PATH } from './gs1/items/gs1-import.controller';
import { Gs1ScanRecorder } from './gs1/scans/gs1-scan-recorder';
import { hostnameOfOrigin } from './domains/hostname';
import { servesHttp } from './config/process-role';
import { answerOnlyWorkerPaths } from './infra/http/worker-surface';
import { allowForcedCollections } from './common/memory/garbage-collector';

/** 1 MiB: a bulk request of 50 codes with logos fits. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
export const MAX_PARAM_LENGTH = 500;
const ADMIN_PATH_PREFIX = '/api/v1/admin/';

/** Builds the fully configured app (not yet listening). */
export interface CreateAppOptions {
  /** false: no Nest logger output (tests). */
  logger?: boolean;
  /** Where the JSON request logs go instead of stdout (tests read them). */
  logDestination?: NodeJS.WritableStream;
  /** The time the app's schedules follow (tests move it forward); the system's by default. */
  clock?: Clock;
}

export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  // An api process never pauses its requests for a forced collection: batch work runs in a worker (docs/operations.md#process-roles).
  allowForcedCollections(config.role !== 'api');
  const logger = createAppLogger(config, options.logDestination);
  // One port for the API and the redirect host, which is a Fastify instance of its own (redirect-host.ts).
  const router = new PrefixRouter({
    requestTimeout: config.http.requestTimeoutMs,
    headersTimeout: config.http.headersTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    // How often Node checks those timeouts (its default, 30 s, would let a slow client hold a connection that long).
    connectionsCheckingInterval: 1000,
  });
  const adapter = new FastifyAdapter({
    serverFactory: router.serverFor,
    // Path ids longer than the router's default (100) reach the id pipes and are named (`id must be a UUID`).
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, querystringParser: parseQueryString },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
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
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, options.clock), adapter, {
    bufferLogs: true,
    abortOnError: false,
    // registerJsonBodyParser installs the one JSON parser (depth-bounded).
    bodyParser: false,
  });
  app.useLogger(options.logger === false ? false : new PinoLoggerService(logger));

  const fastify = app.getHttpAdapter().getInstance();
  // Before any route is added (Swagger's here, the controllers' in init): every route is recorded.
  // The admin API answers 404 to everything while ADMIN_TOKEN is unset, 405 included.
  const routes = new RouteMethods();
  fastify.addHook('onRoute', (route) => {
    if (config.adminToken || !route.url.startsWith(ADMIN_PATH_PREFIX)) routes.add(route.method, route.url);
  });
  registerJsonBodyParser(fastify);
  registerCsvBodyParser(fastify, { paths: ['/api/v1/imports', GS1_LINK_IMPORT_PATH], limitBytes: MAX_IMPORT_BYTES });
  addRequestIdToJsonBodies(fastify);
  logCompletedRequests(fastify);
  // Callback-style hooks: an async hook costs a promise per request on every path, redirects included.
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  enterRequestContexts(fastify);
  const metrics = app.get(MetricsService);
  observeRequestDurations(fastify, metrics);
  const filter = new AllExceptionsFilter(routes);
  app.useGlobalFilters(filter);
  app.useGlobalPipes(new AppValidationPipe());
  if (!servesHttp(config.role)) {
    answerOnlyWorkerPaths(fastify);
    await app.init();
    return app;
  }
  await mountRedirectHost(app, router, config, logger);
  setUpSwagger(app, config);
  await app.init();
  return app;
}

/** The redirect host on its path prefix and on every branded domain (an api or all process). */
async function mountRedirectHost(
  app: NestFastifyApplication,
  router: PrefixRouter,
  config: AppConfig,
  logger: ReturnType<typeof createAppLogger>,
): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(MetricsService);
  const hostRoutes = app.get(HostRoutes);
  const redirectHost = await createRedirectHost(app.get(RedirectService), app.get(ScanRecorder), hostRoutes, {
    trustProxy: config.trustProxy,
    logger,
    metrics,
  });
  const toRedirectHost: RequestListener = (request, response) => redirectHost.routing(request, response);
  for (const prefix of [REDIRECT_PATH_PREFIX, ...hostRoutes.defaultHostPrefixes()]) router.mount(prefix, toRedirectHost);
  const gs1Scans = app.get(Gs1ScanRecorder);
  // The GS1 resolver: under GS1_PATH_PREFIX and /.well-known/gs1resolver on the default host, Digital Link paths on branded domains.
  const gs1Host = await createGs1Host(app.get(Gs1Resolver), {
    prefix: config.gs1PathPrefix,
    trustProxy: config.trustProxy,
    logger,
    metrics,
    domainOf: (request) => servedDomainOf(request.raw) ?? null,
    onRedirected: (request, resolution) => gs1Scans.record(request, resolution),
  });
  const toGs1Host: RequestListener = (request, response) => gs1Host.routing(request, response);
  router.mount(`${config.gs1PathPrefix}/`, toGs1Host);
  router.mount(GS1_DESCRIPTION_PATH, toGs1Host);
  const onBrandedDomain: RequestListener = (request, response) =>
    (servedDomainOf(request)?.served && isResolverPath(request.url ?? '') ? toGs1Host : toRedirectHost)(request, response);
  // A branded domain's requests all go to the redirect host (or its GS1 resolver): a customer's domain never fronts the API.
  router.dispatchFirst(
    dispatchByHost(app.get(DomainHosts), onBrandedDomain, {
      trustProxy: config.trustProxy,
      ownHostnames: [config.baseUrl, config.redirectUrl].flatMap((origin) => hostnameOfOrigin(origin) ?? []),
    }),
  );
  fastify.addHook('preClose', (done) => {
    router.unmountAll();
    done();
  });
  fastify.addHook('onClose', () => Promise.all([redirectHost.close(), gs1Host.close()]).then(() => undefined));
}

function setUpSwagger(app: NestFastifyApplication, config: AppConfig): void {
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app, config), {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: true, displayRequestDuration: true },
  });
}
