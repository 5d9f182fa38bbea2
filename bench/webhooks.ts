/**
 * Webhook delivery throughput: events delivered per second to a local receiver (a process of its
 * own on 127.0.0.1 answering 200 at once), by one instance and by two.
 *
 *   node -r @swc-node/register bench/webhooks.ts
 *
 * Env: BENCH_PG (server URL, default postgresql://postgres@127.0.0.1:5432), REDIS_URL (default
 * redis://127.0.0.1:6379), EVENTS (per run, default 10000).
 * Each run writes EVENTS qrcode.created events with their deliveries straight into the outbox
 * (one transaction), then times the delivery workers until the receiver has every webhook-id.
 * Each delivery is one POST of one event, signed, with its attempt recorded.
 */
import { randomUUID } from 'node:crypto';
import { createApp } from '../src/app.factory';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { loadAppConfig } from '../src/config/app-config';
import { freshMigratedDatabase } from '../test/support/test-databases';
import { Database } from '../src/infra/database/database.service';
import { ReceiverProcess } from './webhook-receiver';

const PG = process.env.BENCH_PG ?? 'postgresql://postgres@127.0.0.1:5432';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const EVENTS = Number(process.env.EVENTS ?? 10_000);
const DB = 'qr_bench_webhooks';

async function main(): Promise<void> {
  await freshMigratedDatabase(PG, DB);
  const receiver = await ReceiverProcess.start(3911);
  const env = {
    DATABASE_URL: `${PG}/${DB}`,
    REDIS_URL: REDIS_URL || undefined,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    REDIS_KEY_PREFIX: `bench:${process.pid}:`,
    WEBHOOK_ALLOW_HTTP: '1',
    WEBHOOK_ALLOW_PRIVATE: '1',
  };
  const app = await createApp(loadAppConfig({ ...env, PORT: '3912' }), { logger: false });
  await app.listen({ port: 3912, host: '127.0.0.1' });
  const { key, accountId } = await app.get(ApiKeysService).create('bench');
  const created = (await (
    await fetch('http://127.0.0.1:3912/api/v1/webhooks', {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['qrcode.created'] }),
    })
  ).json()) as { id: string };
  const prisma = app.get(Database).inspectionClient();
  console.log(`webhook delivery: ${EVENTS} events per run, one POST each, receiver in its own process, node ${process.version}`);

  let delivered = 0;
  const run = async (label: string) => {
    const at = new Date();
    const events = Array.from({ length: EVENTS }, (_, i) => ({
      id: randomUUID(),
      accountId,
      type: 'qrcode.created',
      occurredAt: at,
      body: JSON.stringify({
        type: 'qrcode.created',
        timestamp: at.toISOString(),
        data: { qrcode: { id: randomUUID(), name: `Code ${i}`, type: 'url', is_dynamic: false } },
      }),
    }));
    await prisma.$transaction([
      prisma.webhookEvent.createMany({ data: events }),
      prisma.webhookDelivery.createMany({
        data: events.map((event) => ({
          id: randomUUID(),
          accountId,
          endpointId: created.id,
          eventId: event.id,
          eventType: event.type,
          nextAttemptAt: at,
          createdAt: at,
        })),
      }),
    ]);
    const started = Date.now();
    const cpuBefore = process.cpuUsage();
    const stats = await receiver.until((s) => s.ids >= delivered + EVENTS, 300_000);
    const seconds = (Date.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const pending = await prisma.webhookDelivery.count({ where: { status: 'pending' } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const settled = await prisma.webhookDelivery.count({ where: { status: 'pending' } });
    delivered += EVENTS;
    console.log(
      `${label.padEnd(24)} ${(EVENTS / seconds).toFixed(0).padStart(6)} events/s, ` +
        `app CPU ${((cpu.user + cpu.system) / EVENTS).toFixed(0)} µs/event  ` +
        `(${EVENTS} in ${seconds.toFixed(1)} s; requests ${stats.requests}, distinct webhook-ids ${stats.ids}; ` +
        `pending at the end ${pending}, 0.5 s later ${settled})`,
    );
  };
  await run('one instance');
  const sibling = await createApp(loadAppConfig({ ...env, PORT: '3913' }), { logger: false });
  await sibling.init();
  await run('two instances');
  const attempts = await prisma.webhookAttempt.count();
  console.log(`attempts recorded: ${attempts} for ${delivered} deliveries`);
  await prisma.$disconnect();
  await sibling.close();
  await app.close();
  receiver.stop();
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
