import { HAS_BUILD, HAS_POSTGRES, HAS_REDIS, itWhen } from '../support/environment';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { ServiceProcess, freePort } from '../support/service-process';
import { TcpOutageProxy } from '../support/tcp-outage-proxy';
import { cloneTemplate, withAdminClient, type TestDatabase } from '../support/test-databases';
import { IPHONE } from './fault-load';

/** The documented bound on shutdown, whatever the database does. */
const SHUTDOWN_BOUND_MS = 10_000;
/** Past the bound the process is killed, so that the rest of the scenario (and the count) still runs. */
const KILL_AFTER_MS = 15_000;
const SCANNERS = 6;
const SCAN_BEFORE_FREEZE_MS = 1500;
const SCAN_DURING_FREEZE_MS = 1000;
const STORED_WITHIN_MS = 20_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SIGTERM while the database link is frozen (existing connections pass nothing, new ones work),
 * on the built service as an operator runs it: the process must end within the bound, and no scan
 * it served may be lost: the next start stores what the last one could not (from Redis when
 * configured, else from the spill file in DATA_DIR).
 */
describe.each([
  { variant: 'without Redis (spill file in DATA_DIR)', redis: false, runs: HAS_POSTGRES && HAS_BUILD },
  { variant: 'with Redis', redis: true, runs: HAS_POSTGRES && HAS_REDIS && HAS_BUILD },
])('SIGTERM during a frozen database link, $variant (e2e, built service)', ({ redis, runs }) => {
  const test = itWhen(runs);
  const redisUrl = process.env.REDIS_URL;
  let database: TestDatabase | undefined;
  let proxy: TcpOutageProxy;
  let dataDir: string;
  let env: Record<string, string>;
  let first: ServiceProcess | undefined;
  let second: ServiceProcess | undefined;
  let key: string;
  const codes: Array<{ id: string; shortCode: string }> = [];
  const served = new Map<string, number>();
  let shutdown: { ms: number | null; code: number | null } = { ms: null, code: null };
  let restartError: Error | undefined;

  async function scanUntil(stop: () => boolean): Promise<void> {
    for (let turn = 0; !stop(); turn++) {
      const code = codes[turn % codes.length];
      const status = await fetch(`${first!.origin}/r/${code.shortCode}`, {
        redirect: 'manual',
        headers: { 'user-agent': IPHONE },
        signal: AbortSignal.timeout(2500),
      }).then(
        (res) => res.status,
        () => 0,
      );
      if (status === 302) served.set(code.id, (served.get(code.id) ?? 0) + 1);
      else if (status === 0) await sleep(20);
    }
  }

  beforeAll(async () => {
    if (!runs) return;
    database = await cloneTemplate();
    proxy = TcpOutageProxy.forUrl(database.databaseUrl!, 5432);
    await proxy.start();
    dataDir = mkdtempSync(join(tmpdir(), 'qr-shutdown-'));
    const port = await freePort();
    env = {
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: proxy.through(database.databaseUrl!),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000',
      // A key to scan with, printed at the first start (PostgreSQL mints none unless asked).
      BOOTSTRAP_KEY: '1',
      ...(redis ? { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: `test:shutdown:${randomBytes(4).toString('hex')}:` } : {}),
    };
    first = await ServiceProcess.start(env);
    key = first.firstKey!;
    expect(key).toEqual(expect.stringMatching(/^qr_live_/));
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${first.origin}/api/v1/qrcodes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ type: 'url', content: { url: `https://example.com/shutdown/${i}` }, is_dynamic: true }),
      });
      expect(res.status).toBe(201);
      const created = (await res.json()) as { id: string; short_code: string };
      codes.push({ id: created.id, shortCode: created.short_code });
    }

    let scanning = true;
    const scanners = Array.from({ length: SCANNERS }, () => scanUntil(() => !scanning));
    await sleep(SCAN_BEFORE_FREEZE_MS);
    await proxy.set('freeze-existing-links');
    await sleep(SCAN_DURING_FREEZE_MS);
    shutdown = await first.stop('SIGTERM', KILL_AFTER_MS);
    scanning = false;
    await Promise.all(scanners);

    proxy.resetDeadLinks();
    await proxy.restore();
    try {
      second = await ServiceProcess.start(env);
    } catch (error) {
      restartError = error as Error;
    }
  }, 120_000);

  afterAll(async () => {
    if (!runs) return;
    await first?.kill();
    await second?.stop('SIGTERM', KILL_AFTER_MS);
    await proxy.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    if (redis) await deleteKeys(redisUrl!, env.REDIS_KEY_PREFIX);
  }, 60_000);

  test(`exits within ${SHUTDOWN_BOUND_MS / 1000} s of SIGTERM while the database link is frozen`, () => {
    expect({ exitedAfterMs: shutdown.ms }).toEqual({ exitedAfterMs: expect.any(Number) });
    expect(shutdown.ms).toBeLessThanOrEqual(SHUTDOWN_BOUND_MS);
  });

  test('starts again on the same DATA_DIR and database', () => {
    expect(restartError?.message).toBeUndefined();
  });

  test(
    'loses no scan it served: after the restart, 302 answers = scans through the API = scan_events rows',
    async () => {
      const totalServed = [...served.values()].reduce((sum, count) => sum + count, 0);
      expect(totalServed).toBeGreaterThan(30);
      if (!second) throw new Error(`no second start to count with: ${restartError?.message}`);
      const counts = async () => {
        const api = await Promise.all(
          codes.map(async (code) => {
            const res = await fetch(`${second!.origin}/api/v1/qrcodes/${code.id}`, {
              headers: { 'x-api-key': key },
              signal: AbortSignal.timeout(2500),
            }).catch(() => null);
            return res?.status === 200 ? ((await res.json()) as { scans: number }).scans : NaN;
          }),
        );
        const { rows } = await withAdminClient(database!.databaseUrl!, (client) =>
          client.query<{ id: string; count: string }>(
            'SELECT qr_code_id AS id, count(*) AS count FROM scan_events WHERE NOT is_bot GROUP BY qr_code_id',
          ),
        );
        const stored = new Map(rows.map((row) => [row.id, Number(row.count)]));
        return codes.map((code, i) => ({ code: code.id, served: served.get(code.id) ?? 0, throughApi: api[i], rows: stored.get(code.id) ?? 0 }));
      };
      const expected = codes.map((code) => ({
        code: code.id,
        served: served.get(code.id) ?? 0,
        throughApi: served.get(code.id) ?? 0,
        rows: served.get(code.id) ?? 0,
      }));
      const deadline = Date.now() + STORED_WITHIN_MS;
      let seen = await counts();
      while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() < deadline) {
        await sleep(500);
        seen = await counts();
      }
      expect(seen).toEqual(expected);
    },
    STORED_WITHIN_MS + 20_000,
  );
});

/** Removes the keys a run left under its prefix in the shared Redis. */
async function deleteKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  try {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length) await client.del(...keys);
  } finally {
    client.disconnect();
  }
}
