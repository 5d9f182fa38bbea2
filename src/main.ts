import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ApiKeysService } from './auth/api-keys.service';
import { createApp } from './app.factory';
import { ConfigError, loadAppConfig } from './config/app-config';

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadAppConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const app = await createApp(config);
  const firstKey = await app.get(ApiKeysService).createFirstKeyIfNone();
  await app.listen({ port: config.port, host: '0.0.0.0' });
  if (firstKey) announceFirstKey(firstKey.key, config.baseUrl);
  closeGracefullyOn(['SIGTERM', 'SIGINT'], app);
}

/**
 * Graceful shutdown: stop accepting and finish in-flight requests (Fastify's close), then the
 * app's hooks (final scan flush before the pools close), then exit.
 */
function closeGracefullyOn(signals: NodeJS.Signals[], app: Awaited<ReturnType<typeof createApp>>): void {
  let closing = false;
  const close = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    const logger = new Logger('Shutdown');
    logger.log(`${signal} received: closing`);
    try {
      // Nest's close() would run the hooks before closing the server; close the server first.
      await app.getHttpAdapter().getInstance().close();
      await app.close();
      process.exit(0);
    } catch (error) {
      logger.error(`Shutdown failed: ${(error as Error).message}`);
      process.exit(1);
    }
  };
  for (const signal of signals) process.once(signal, (received) => void close(received));
}

/** Printed once, to stdout, outside the JSON logs: the only time this key is ever shown. */
function announceFirstKey(key: string, baseUrl: string): void {
  const line = '='.repeat(72);
  process.stdout.write(
    `\n${line}\n  No API key existed, so one was created. It is shown only this once:\n\n    X-API-Key: ${key}\n\n` +
      `  API docs: ${baseUrl}/docs\n  Try: curl -H "X-API-Key: ${key}" ${baseUrl}/api/v1/qrcodes\n${line}\n\n`,
  );
}

bootstrap().catch((error: Error) => {
  console.error(`Failed to start: ${error.message}`);
  process.exit(1);
});
