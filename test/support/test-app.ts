import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'light-my-request';
import { createApp } from '../../src/app.factory';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { loadAppConfig } from '../../src/config/app-config';
import type { Clock } from '../../src/common/time/clock';
import type { PrismaClient } from '../../src/generated/prisma/client';
import { Database } from '../../src/infra/database/database.service';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cloneTemplate, type TestDatabase } from './test-databases';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface Sibling {
  app: NestFastifyApplication;
  /** The real HTTP pipeline, through the app's HTTP server (API and redirect host alike), without a socket. */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** Shuts this instance down (as a deploy stops one); the test app's close no longer does. */
  close(): Promise<void>;
}

/**
 * Requests into the app's own HTTP server listener, as a socket would deliver them: the server
 * hands /r/ to the redirect host's instance and the rest to the API's (Nest's inject() would only
 * reach the API's instance).
 */
export function requestsThrough(app: NestFastifyApplication): (options: InjectOptions) => Promise<LightMyRequestResponse> {
  const server = app.getHttpServer();
  return (options) => inject((request, response) => server.emit('request', request, response), options);
}

export interface TestApp extends Sibling {
  /** A Prisma client of the test's own on the app's database: the tests inspect rows through it, independently of the app's queries. */
  prisma: PrismaClient;
  /** A new account with one key; returns the plain key and the account id. */
  newAccount(): Promise<{ key: string; accountId: string }>;
  /** A second instance on the same database and Redis key space, as behind a load balancer; `env` overrides this one's variables. */
  startSibling(env?: Record<string, string | undefined>): Promise<Sibling>;
  close(): Promise<void>;
}

/**
 * Starts the whole app on a fresh clone of the migrated template database, with the run's Redis
 * (REDIS_URL) when set. `env` overrides configuration variables for this app.
 */
export async function startTestApp(
  env: Record<string, string | undefined> = {},
  options: { databaseUrl?: (cloneUrl: string) => string; logDestination?: NodeJS.WritableStream; clock?: Clock } = {},
): Promise<TestApp> {
  const database: TestDatabase = await cloneTemplate();
  // The embedded database's clone, or a folder of its own for the scan spill files.
  const dataDir = database.dataDir ?? mkdtempSync(join(tmpdir(), 'qr-test-data-'));
  const variables = {
    BASE_URL: 'http://api.test',
    REDIRECT_URL: 'http://qr.test',
    ADMIN_TOKEN,
    REDIS_URL: process.env.REDIS_URL,
    // Test apps share one Redis: each gets its own key space (queues, counters, cache).
    REDIS_KEY_PREFIX: `test:${randomBytes(4).toString('hex')}:`,
    DATABASE_URL: database.databaseUrl && (options.databaseUrl?.(database.databaseUrl) ?? database.databaseUrl),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...env,
  };
  const config = loadAppConfig(variables);
  const app = await createApp(config, { logger: false, logDestination: options.logDestination, clock: options.clock });
  await app.getHttpAdapter().getInstance().ready();
  const siblings: NestFastifyApplication[] = [];
  const prisma = app.get(Database).inspectionClient();
  return {
    app,
    prisma,
    request: requestsThrough(app),
    newAccount: async () => {
      const created = await app.get(ApiKeysService).create('test key');
      return { key: created.key, accountId: created.accountId };
    },
    startSibling: async (overrides = {}) => {
      const sibling = await createApp(loadAppConfig({ ...variables, ...overrides }), { logger: false, clock: options.clock });
      await sibling.getHttpAdapter().getInstance().ready();
      siblings.push(sibling);
      const close = async () => {
        siblings.splice(siblings.indexOf(sibling), 1);
        await sibling.close();
      };
      return { app: sibling, request: requestsThrough(sibling), close };
    },
    close: async () => {
      for (const sibling of siblings) await sibling.close();
      await prisma.$disconnect();
      await app.close();
      await database.drop();
      if (!database.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
