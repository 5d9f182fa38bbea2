import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { eventually } from './support/factories';
import { describeWhen, HAS_POSTGRES, HAS_REDIS } from './support/environment';
import { decodePng, flattenOnWhite } from './support/png-reader';
import { decodeWithZxing } from './support/qr-decoders';
import { freePort, ServiceProcess } from './support/service-process';
import { cloneTemplate, type TestDatabase } from './support/test-databases';

type Job = { id: string; status: string; done: number; total: number };
type JobRow = { status: string; attempts: number; lease_token: string | null; done: number };
const CODES = 1000;

/**
 * Workers that die or are stopped in the middle of a job, as the built service runs (`node
 * dist/main.js`, ROLE=api and ROLE=worker processes on one PostgreSQL and Redis): a ZIP export is
 * never lost, never holds a code twice, and a job handed back at SIGTERM goes on at once elsewhere.
 */
describeWhen(HAS_POSTGRES && HAS_REDIS)('a worker killed or stopped mid-job (e2e, built service on PostgreSQL and Redis)', () => {
  let database: TestDatabase;
  let pg: Client;
  let dataDir: string;
  let api: ServiceProcess;
  const workers: ServiceProcess[] = [];
  let key: string;
  let ids: string[];

  const environment = async (extra: Record<string, string>) => ({
    PORT: String(await freePort()),
    DATABASE_URL: database.databaseUrl!,
    REDIS_URL: process.env.REDIS_URL!,
    REDIS_KEY_PREFIX: `failover-${process.pid}:`,
    DATA_DIR: join(dataDir, String(workers.length)),
    RATE_LIMIT_PER_MINUTE: '100000',
    LOG_LEVEL: 'warn',
    ...extra,
  });
  const startWorker = async (extra: Record<string, string> = {}) => {
    const worker = await ServiceProcess.start(await environment({ ROLE: 'worker', ...extra }), 60_000);
    workers.push(worker);
    return worker;
  };
  const call = async <T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${api.origin}${path}`, { ...init, headers: { 'x-api-key': key, 'content-type': 'application/json', ...init.headers } });
    return { status: res.status, body: (await res.json()) as T };
  };
  const exportAll = async (): Promise<string> => {
    const created = await call<Job>('/api/v1/exports', { method: 'POST', body: JSON.stringify({ format: 'png', size: 200 }) });
    expect(created.status).toBe(202);
    return created.body.id;
  };
  const job = async (id: string) => (await call<Job>(`/api/v1/exports/${id}`)).body;
  const row = async (id: string) => (await pg.query<JobRow>('SELECT status, attempts, lease_token, done FROM jobs WHERE id = $1', [id])).rows[0];
  /** Polls every 50 ms until `until` holds of the job (or the time is up): the last state seen. */
  const watch = async (id: string, until: (seen: Job) => boolean, timeoutMs: number): Promise<Job> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = await job(id);
      if (until(seen) || Date.now() > deadline) return seen;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  /** The downloaded ZIP holds every code exactly once, as a PNG that decodes to the code's content, and the manifest. */
  const expectEveryCodeOnce = async (id: string) => {
    const res = await fetch(`${api.origin}/api/v1/exports/${id}/download`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const names = Object.keys(files);
    expect(names.filter((name) => name.endsWith('.png'))).toHaveLength(CODES);
    expect(names).toHaveLength(CODES + 1);
    const manifest = parse<Record<string, string>>(Buffer.from(files['manifest.csv']).toString('utf8'), { columns: true });
    expect(manifest.map((entry) => entry.id).sort()).toEqual([...ids].sort());
    expect(new Set(manifest.map((entry) => entry.file)).size).toBe(CODES);
    for (const entry of [manifest[0], manifest[499], manifest[CODES - 1]]) {
      const text = await decodeWithZxing(flattenOnWhite(decodePng(Buffer.from(files[entry.file]))));
      expect(text).toBe(`https://example.com/failover/${/\d+$/.exec(entry.name)![0]}`);
    }
  };

  beforeAll(async () => {
    database = await cloneTemplate();
    pg = new Client({ connectionString: database.databaseUrl });
    await pg.connect();
    dataDir = mkdtempSync(join(tmpdir(), 'qr-failover-'));
    api = await ServiceProcess.start(await environment({ ROLE: 'api', BOOTSTRAP_KEY: '1' }), 240_000);
    await eventually(async () => api.firstKey !== undefined, true, 10_000);
    key = api.firstKey!;
    const { account_id: accountId } = (await pg.query<{ account_id: string }>('SELECT account_id FROM api_keys LIMIT 1')).rows[0];
    // 1,000 static url codes, written straight to the table (the creation path is not under test).
    const inserted = await pg.query<{ id: string }>(
      `INSERT INTO qr_codes (id, account_id, name, type, content, content_string, style, updated_at)
       SELECT gen_random_uuid(), $1, 'Failover ' || n, 'url', jsonb_build_object('url', 'https://example.com/failover/' || n),
              'https://example.com/failover/' || n, '{}'::jsonb, now()
       FROM generate_series(1, ${CODES}) AS n RETURNING id`,
      [accountId],
    );
    ids = inserted.rows.map((r) => r.id);
  }, 300_000);
  afterAll(async () => {
    for (const worker of workers) await worker.kill();
    await api?.kill();
    await pg?.end();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('kill -9 of the worker in the middle of a 1,000-code ZIP: another worker finishes it after the lease; each code once in the ZIP', async () => {
    const first = await startWorker();
    const id = await exportAll();
    const midway = await watch(id, (seen) => seen.done >= 100 || seen.status === 'done', 60_000);
    expect(midway.status).toBe('running');
    await first.kill();
    expect(first.running).toBe(false);
    const orphan = await row(id);
    expect(orphan).toMatchObject({ status: 'running', attempts: 1 });
    expect(orphan.done).toBeLessThan(CODES);
    expect(orphan.lease_token).not.toBeNull();

    // The job lease is 60 s: the second worker claims it once the dead one's lease ran out.
    await startWorker();
    const done = await watch(id, (seen) => seen.status === 'done' || seen.status === 'failed', 150_000);
    expect(done).toMatchObject({ status: 'done', done: CODES, total: CODES });
    expect((await row(id)).attempts).toBe(2);
    await expectEveryCodeOnce(id);
  }, 300_000);

  it('SIGTERM during a job with time to finish: the job finishes before the worker exits', async () => {
    const worker = await startWorker({ SHUTDOWN_GRACE_MS: '60000', SHUTDOWN_TIMEOUT_MS: '120000' });
    for (const other of workers.filter((w) => w !== worker)) await other.kill();
    const id = await exportAll();
    const midway = await watch(id, (seen) => seen.done >= 50 || seen.status === 'done', 60_000);
    expect(midway).toMatchObject({ status: 'running' });
    const stopped = await worker.stop('SIGTERM', 110_000);
    expect(stopped).toMatchObject({ code: 0 });
    // Nothing else runs jobs: what the job is now, the stopping worker made it.
    expect(await row(id)).toMatchObject({ status: 'done', done: CODES, lease_token: null, attempts: 1 });
    await expectEveryCodeOnce(id);
  }, 180_000);

  it('SIGTERM during a job with a short grace: the job is handed back (attempt not counted) and another worker takes it at once', async () => {
    const worker = await startWorker({ SHUTDOWN_GRACE_MS: '100' });
    const id = await exportAll();
    const midway = await watch(id, (seen) => seen.done >= 50 || seen.status === 'done', 60_000);
    expect(midway).toMatchObject({ status: 'running' });
    const stopped = await worker.stop('SIGTERM', 20_000);
    expect(stopped.code).toBe(0);
    const handedBack = await row(id);
    expect(handedBack).toMatchObject({ status: 'queued', lease_token: null, attempts: 0 });
    expect(handedBack.done).toBeLessThan(CODES);

    // Well within a lease: the job was given back, not left to expire.
    const startedAt = Date.now();
    await startWorker();
    const done = await watch(id, (seen) => seen.status === 'done' || seen.status === 'failed', 60_000);
    expect(done).toMatchObject({ status: 'done', done: CODES });
    expect(Date.now() - startedAt).toBeLessThan(45_000);
    expect((await row(id)).attempts).toBe(1);
    await expectEveryCodeOnce(id);
  }, 180_000);
});
