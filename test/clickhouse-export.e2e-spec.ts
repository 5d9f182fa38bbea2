import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ClickHouseTestServer, hasClickHouseServer } from './support/clickhouse-server';
import { describeWhen, HAS_POSTGRES } from './support/environment';
import { qrInput } from './support/factories';
import { freePort, ServiceProcess } from './support/service-process';
import { cloneTemplate, type TestDatabase } from './support/test-databases';

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/**
 * The export as an operator runs it: the built service (node dist/main.js) on PostgreSQL with
 * CLICKHOUSE_URL, scans streaming through its redirect host while it gets SIGTERM and starts again,
 * and while ClickHouse restarts. Every scan answered with a redirect reaches ClickHouse once.
 */
describeWhen(hasClickHouseServer && HAS_POSTGRES)('the built service exporting scans to ClickHouse (e2e)', () => {
  let server: ClickHouseTestServer;
  let database: TestDatabase;
  let service: ServiceProcess | undefined;
  let dataDir: string;
  let pg: Client;
  const clickhouseDb = `qr_export_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    server = await ClickHouseTestServer.start();
    database = await cloneTemplate();
    pg = new Client({ connectionString: database.databaseUrl });
    await pg.connect();
    dataDir = mkdtempSync(join(tmpdir(), 'qr-export-'));
  }, 60_000);
  afterAll(async () => {
    await service?.kill();
    await pg?.end();
    await database?.drop();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes every redirected scan to ClickHouse once across a SIGTERM of the service and a restart of ClickHouse', async () => {
    const port = await freePort();
    const env = {
      PORT: String(port),
      DATABASE_URL: database.databaseUrl!,
      DATA_DIR: dataDir,
      CLICKHOUSE_URL: server.url(clickhouseDb),
      BOOTSTRAP_KEY: '1',
      RATE_LIMIT_PER_MINUTE: '100000',
      LOG_LEVEL: 'warn',
    };
    service = await ServiceProcess.start(env, 240_000);
    const key = service.firstKey!;
    expect(key).toMatch(/^qr_live_/);
    const created = await fetch(`${service.origin}/api/v1/qrcodes`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(qrInput('url', { is_dynamic: true })),
    });
    expect(created.status).toBe(201);
    const code = (await created.json()) as { id: string; short_code: string };

    let redirected = 0;
    let streaming = true;
    const origin = service.origin;
    const stream = async () => {
      while (streaming) {
        const res = await fetch(`${origin}/r/${code.short_code}`, { redirect: 'manual', headers: { 'user-agent': PHONE } }).catch(() => null);
        if (res?.status === 302) redirected++;
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const streams = Array.from({ length: 6 }, stream);
    const whenRedirected = async (n: number) => {
      while (redirected < n) await new Promise((resolve) => setTimeout(resolve, 20));
    };

    await whenRedirected(300);
    // SIGTERM mid-stream: the service stores (or spills) what it holds and stops; scans meanwhile fail to connect and are not counted.
    const stopped = await service.stop('SIGTERM', 20_000);
    expect(stopped.ms).not.toBeNull();
    service = await ServiceProcess.start(env, 60_000);
    const afterRestart = redirected;
    await whenRedirected(afterRestart + 300);
    await server.stop();
    await whenRedirected(redirected + 200);
    await server.resume();
    await whenRedirected(redirected + 200);
    streaming = false;
    await Promise.all(streams);

    const stored = async () =>
      Number((await pg.query<{ n: string }>('SELECT count(*) AS n FROM scan_events WHERE qr_code_id = $1', [code.id])).rows[0].n);
    const pending = async () => Number((await pg.query<{ n: string }>('SELECT count(*) AS n FROM clickhouse_export_outbox')).rows[0].n);
    const inClickHouse = async () =>
      (await server.query(`SELECT count(), uniqExact(event_id) FROM ${clickhouseDb}.scan_events WHERE qr_code_id = toUUID('${code.id}')`))
        .trim()
        .split('\t')
        .map(Number);
    const deadline = Date.now() + 60_000;
    while ((await stored()) < redirected || (await pending()) > 0 || (await inClickHouse())[0] < redirected) {
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await stored()).toBe(redirected);
    expect(await pending()).toBe(0);
    expect(await inClickHouse()).toEqual([redirected, redirected]);
  }, 420_000);
});
