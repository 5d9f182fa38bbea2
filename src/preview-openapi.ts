import 'reflect-metadata';
import type { OpenAPIObject } from '@nestjs/swagger';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import type { AppConfig } from './config/app-config';
import { buildOpenApiDocument } from './infra/openapi/openapi-document';

/**
 * The OpenAPI document of the app built in Nest's preview mode, which reads the routes without
 * creating any provider: no database or Redis is touched (`npm run openapi`, `npm run docs:scopes`).
 */
export async function previewOpenApiDocument(config: AppConfig): Promise<OpenAPIObject> {
  const app = await NestFactory.create(AppModule.forRoot(config), new FastifyAdapter(), { preview: true, logger: false, abortOnError: false });
  try {
    return buildOpenApiDocument(app, config);
  } finally {
    await app.close();
  }
}
