import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import pino, { type Logger as PinoLogger } from 'pino';
import { ApiKeysService } from './auth/api-keys.service';
import { createApp } from './app.factory';
import { ScanBuffer } from './scans/scan-buffer.service';
import { ConfigError, loadAppConfig } from './config/app-config';
import { lockEmbeddedDatabase } from './infra/database/embedded-database-lock';
import { servesHttp } from './config/process-role';

/** A service restarted right after a crash waits this long for the crashed one's lock to go stale. */
const EMBEDDED_LOCK_WAIT_MS = 15_000;

/** Part of SHUTDOWN_TIMEOUT_MS kept for writing the spill file and exiting. */
const EXIT_MARGIN_MS = 500;

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadAppConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  // The CLI checks this lock too, so it never works on a copy of the database this process holds.
  const releaseDatabase = config.databaseUrl ? null : await lockEmbeddedDatabase(config.dataDir, { waitMs: EMBEDDED_LOCK_WAIT_MS });
  const app = await createApp(config);
  // A worker serves no API: the key is minted where it can be used.
  const firstKey = config.bootstrapKey && servesHttp(config.role) ? await app.get(ApiKeysService).createFirstKeyIfNone() : null;
  await app.listen({ port: config.port, host: '0.0.0.0' });
  new Logger('Bootstrap').log(`Listening on port ${config.port} as ROLE=${config.role}`);
  if (firstKey) announceFirstKey(firstKey.key, config.baseUrl, app.getHttpAdapter().getInstance().log as PinoLogger);
  closeGracefullyOn(['SIGTERM', 'SIGINT'], app, config.shutdownTimeoutMs, releaseDatabase);
}

/**
 * Graceful shutdown: stop accepting and finish in-flight requests (Fastify's close), then the
 * app's hooks (scans handed on before the pools close), then exit, all within `timeoutMs`
 * (SHUTDOWN_TIMEOUT_MS) whatever the database does: at the deadline the scans still in memory are
 * written to the spill file and the process ends.
 */
function closeGracefullyOn(
  signals: NodeJS.Signals[],
  app: Awaited<ReturnType<typeof createApp>>,
  timeoutMs: number,
  releaseDatabase: (() => Promise<void>) | null,
): void {
  let closing = false;
  const close = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    const logger = new Logger('Shutdown');
    logger.log(`${signal} received: closing (at most ${timeoutMs} ms)`);
    // The deadline leaves a moment for the spill file and the exit itself, so the process is gone within timeoutMs.
    setTimeout(() => {
      logger.error(`Shutdown took longer than ${timeoutMs - EXIT_MARGIN_MS} ms: ending now`);
      app.get(ScanBuffer).spillSync();
      process.exit(1);
    }, timeoutMs - EXIT_MARGIN_MS).unref();
    try {
      // Nest's close() would run the hooks before closing the server; close the server first.
      await app.getHttpAdapter().getInstance().close();
      await app.close();
      await releaseDatabase?.();
      process.exit(0);
    } catch (error) {
      logger.error(`Shutdown failed: ${(error as Error).message}`);
      process.exit(1);
    }
  };
  for (const signal of signals) process.once(signal, (received) => void close(received));
}

/**
 * Printed once, as plain text outside the JSON lines, the only time this key is ever shown. Written
 * to the log's own stream (stdout), which pino writes asynchronously: a direct write to stdout would
 * overtake the start-up lines still queued there, and the banner would scroll away above them.
 */
function announceFirstKey(key: string, baseUrl: string, logger: PinoLogger): void {
  const line = '='.repeat(72);
  const stdout = (logger as unknown as Record<symbol, { write(text: string): unknown }>)[pino.symbols.streamSym];
  stdout.write(
    `\n${line}\n  No API key existed, so one was created. It is shown only this once:\n\n    X-API-Key: ${key}\n\n` +
      `  API docs: ${baseUrl}/docs\n  Try: curl -H "X-API-Key: ${key}" ${baseUrl}/api/v1/qrcodes\n${line}\n\n`,
  );
}

bootstrap().catch((error: Error) => {
  console.error(`Failed to start: ${error.message}`);
  process.exit(1);
});
