import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppModule } from './app.module';
import { ConfigError, loadAppConfig } from './config/app-config';
import { buildOpenApiDocument } from './infra/openapi/openapi-document';

/**
 * `npm run openapi [-- FILE]`: writes the OpenAPI document (default `openapi.json`) for integrators
 * who generate clients without running the service. The app is built in Nest's preview mode, which
 * reads the routes without creating any provider, so no database or Redis is touched; `servers`
 * follow BASE_URL and REDIRECT_URL as at run time.
 */
async function main(file = 'openapi.json'): Promise<void> {
  const config = loadAppConfig();
  const app = await NestFactory.create(AppModule.forRoot(config), new FastifyAdapter(), { preview: true, logger: false, abortOnError: false });
  try {
    const path = resolve(file);
    writeFileSync(path, `${JSON.stringify(buildOpenApiDocument(app, config), null, 2)}\n`);
    console.log(`OpenAPI document written to ${path}`);
  } finally {
    await app.close();
  }
}

main(process.argv[2]).catch((error: Error) => {
  console.error(error instanceof ConfigError ? error.message : `openapi: ${error.message}`);
  process.exit(1);
});
