import { unzipSync } from 'fflate';
import { randomUUID } from 'node:crypto';
import { JobRunner, PERIODIC_LEASE_MS } from '../src/infra/jobs/job-runner.service';
import { auth, createQr, expectErrorBody, expectStatus, GENEROUS_RATE_LIMIT, TestClock } from './support/factories';
import { describeWhen, HAS_POSTGRES } from './support/environment';
import { type Sibling, startTestApp, type TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

type Job = { id: string; status: string; done: number; total: number; [key: string]: unknown };
const HOUR_MS = 3_600_000;
const WEBHOOKS = { WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE: '1' };

async function jobStatus(instance: Sibling, key: string, path: string, wanted: string, timeoutMs = 60_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await instance.request({ url: path, headers: auth(key) })).json<Job>();
    if (job.status === wanted || Date.now() > deadline) return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Several instances on one database (docs/operations.md#process-roles): PostgreSQL (the embedded database serves one process). */
describeWhen(HAS_POSTGRES)('process roles: two api instances and a worker (e2e)', () => {
  let api: TestApp;
  let otherApi: Sibling;
  let key: string;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    api = await startTestApp({ ...GENEROUS_RATE_LIMIT, ...WEBHOOKS, ROLE: 'api' });
    otherApi = await api.startSibling({ ROLE: 'api' });
    ({ key } = await api.newAccount());
  });
  afterAll(async () => {
    await api?.close();
    await receiver.stop();
  });

  it('without a worker, jobs are accepted (202) and stay queued; a worker then runs them, and any api instance serves the result', async () => {
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push(await createQr(api, key, { name: `Poster ${i}` }));
    const hook = await api.request({ method: 'POST', url: '/api/v1/webhooks', headers: auth(key), payload: { url: receiver.url(), events: ['*'] } });
    expectStatus(hook, 201);
    await createQr(api, key, { name: 'Announced' });
    const exported = await api.request({ method: 'POST', url: '/api/v1/exports', headers: auth(key), payload: { format: 'png', size: 200 } });
    expectStatus(exported, 202);
    const imported = await otherApi.request({
      method: 'POST',
      url: '/api/v1/imports',
      headers: { ...auth(key), 'content-type': 'text/csv' },
      payload: 'type,name,content.url\r\nurl,Imported,https://example.com/imported\r\n',
    });
    expectStatus(imported, 202);
    const exportPath = `/api/v1/exports/${exported.json<Job>().id}`;
    // Longer than a worker's poll (500 ms): no api instance claims.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await otherApi.request({ url: exportPath, headers: auth(key) })).json<Job>().status).toBe('queued');
    expect(receiver.received).toHaveLength(0);

    const worker = await api.startSibling({ ROLE: 'worker' });
    const done = await jobStatus(otherApi, key, exportPath, 'done');
    expect(done).toMatchObject({ status: 'done', done: 4 });
    expect((await jobStatus(api, key, `/api/v1/imports/${imported.json<Job>().id}`, 'done')).status).toBe('done');
    // The ZIP was built by the worker and is stored in PostgreSQL: the other api instance serves it.
    const download = await otherApi.request({ url: `${exportPath}/download`, headers: auth(key) });
    expectStatus(download, 200);
    const files = Object.keys(unzipSync(new Uint8Array(download.rawPayload)));
    expect(files.filter((name) => name.endsWith('.png'))).toHaveLength(4);
    // The creation events of the code made after the endpoint and of the imported one were delivered by the worker.
    const deadline = Date.now() + 20_000;
    while (receiver.received.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.received.map((received) => JSON.parse(received.body).type)).toEqual(['qrcode.created', 'qrcode.created']);
    await worker.close();
  });

  it('a CSV export (format csv) is built by the worker, and the other api instance serves the bytes GET qrcodes.csv streams', async () => {
    for (let i = 0; i < 3; i++) await createQr(api, key, { name: `Listed ${i}`, is_dynamic: i % 2 === 0 });
    const exported = await api.request({ method: 'POST', url: '/api/v1/exports', headers: auth(key), payload: { format: 'csv', sort: 'name-asc' } });
    expectStatus(exported, 202);
    const exportPath = `/api/v1/exports/${exported.json<Job>().id}`;
    const worker = await api.startSibling({ ROLE: 'worker' });
    try {
      expect(await jobStatus(otherApi, key, exportPath, 'done')).toMatchObject({ status: 'done', format: 'csv', view: 'import' });
    } finally {
      await worker.close();
    }
    const download = await otherApi.request({ url: `${exportPath}/download`, headers: auth(key) });
    expectStatus(download, 200);
    const streamed = await api.request({ url: '/api/v1/qrcodes.csv?sort=name-asc', headers: auth(key) });
    expect(streamed.body).toContain('Listed 2');
    expect(download.rawPayload.equals(streamed.rawPayload)).toBe(true);
  });

  it('a worker answers its probes and /metrics, and 404 to the API, the docs and the redirect host', async () => {
    const worker = await api.startSibling({ ROLE: 'worker' });
    try {
      const ready = await worker.request({ url: '/health/ready' });
      expectStatus(ready, 200);
      expect(ready.json()).toMatchObject({ status: 'ok', components: { database: { status: 'up' }, jobs: { status: 'up' } } });
      expectStatus(await worker.request({ url: '/health/live' }), 200);
      const metrics = (await worker.request({ url: '/metrics' })).body;
      for (const queue of ['jobs', 'webhook-deliveries']) {
        expect(metrics).toMatch(new RegExp(`^job_queue_depth\\{queue="${queue}"\\} \\d+$`, 'm'));
        expect(metrics).toMatch(new RegExp(`^job_queue_oldest_ready_seconds\\{queue="${queue}"\\} [\\d.e+-]+$`, 'm'));
        expect(metrics).toMatch(new RegExp(`^job_queue_running\\{queue="${queue}"\\} \\d+$`, 'm'));
      }
      for (const url of ['/api/v1/qrcodes', '/docs', '/r/abcdefg', '/api/v1/admin/api-keys']) {
        const res = await worker.request({ url, headers: auth(key) });
        expect(expectErrorBody(res, 404).message).toMatch(/worker process/);
      }
    } finally {
      await worker.close();
    }
    const apiReady = (await api.request({ url: '/health/ready' })).json();
    expect(apiReady).toMatchObject({ status: 'ok', components: { jobs: { status: 'not_running' } } });
  });
});

describeWhen(HAS_POSTGRES)('periodic tasks across instances (e2e)', () => {
  const clock = new TestClock();
  let first: TestApp;
  let instances: Array<Pick<Sibling, 'app'>>;

  beforeAll(async () => {
    // Three instances that run jobs, on a clock the test moves: their periodic tasks run when the test says.
    first = await startTestApp({ ROLE: 'worker' }, { clock });
    instances = [first, await first.startSibling(), await first.startSibling({ ROLE: 'all' })];
  });
  afterAll(() => first?.close());

  const runs = (task: string) =>
    first.prisma.periodicTaskRun.findMany({
      where: { task },
      orderBy: { periodStart: 'asc' },
      select: { periodStart: true, claims: true, finishedAt: true },
    });

  it('an hourly task runs once per hour across three instances over a simulated day', async () => {
    const start = clock.now().getTime();
    for (let hour = 0; hour <= 24; hour++) {
      await Promise.all(instances.map((instance) => instance.app.get(JobRunner).runDuePeriodicTasks()));
      if (hour < 24) clock.advance(HOUR_MS);
    }
    const hourly = (await runs('audit-retention')).filter((run) => run.periodStart.getTime() >= start - HOUR_MS);
    expect(hourly).toHaveLength(25);
    expect(hourly.every((run) => run.claims === 1 && run.finishedAt !== null)).toBe(true);
    const starts = hourly.map((run) => run.periodStart.getTime());
    expect(new Set(starts).size).toBe(25);
    expect(starts.every((at) => at % HOUR_MS === 0)).toBe(true);
    // The daily sweep of old runs ran once a day, not once per instance.
    expect((await runs('periodic-runs-sweep')).filter((run) => run.periodStart.getTime() >= start - 24 * HOUR_MS)).toHaveLength(2);
  });

  it('a run whose instance died is taken over by another once its lease ran out', async () => {
    clock.advance(HOUR_MS);
    const now = clock.now();
    const periodStart = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
    // What an instance killed mid-run leaves: its claim, with a lease it no longer renews.
    await first.prisma.periodicTaskRun.create({
      data: {
        task: 'idempotency-keys-sweep',
        periodStart,
        leaseToken: randomUUID(),
        leaseExpiresAt: new Date(now.getTime() + PERIODIC_LEASE_MS),
        startedAt: now,
      },
    });
    const runner = instances[1].app.get(JobRunner);
    await runner.runDuePeriodicTasks();
    const held = await first.prisma.periodicTaskRun.findUniqueOrThrow({
      where: { task_periodStart: { task: 'idempotency-keys-sweep', periodStart } },
    });
    expect(held).toMatchObject({ claims: 1, finishedAt: null });
    clock.advance(PERIODIC_LEASE_MS + 1000);
    await runner.runDuePeriodicTasks();
    const taken = await first.prisma.periodicTaskRun.findUniqueOrThrow({
      where: { task_periodStart: { task: 'idempotency-keys-sweep', periodStart } },
    });
    expect(taken.claims).toBe(2);
    expect(taken.finishedAt).not.toBeNull();
  });
});
