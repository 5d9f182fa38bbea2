import { parse } from 'csv-parse/sync';
import { randomUUID } from 'node:crypto';
import { auth, createFolder, createQr, expectFieldErrors, expectStatus, GENEROUS_RATE_LIMIT } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

type Job = { id: string; status: string; total: number; done: number; bytes: number | null; view: string | null; [key: string]: unknown };
const DAY = 86_400_000;
/** More than two pages (1,000 codes each) and more than one stored piece (1 MiB) of CSV. */
const MANY = 4500;

/** POST /api/v1/exports with format csv (docs/exports-and-imports.md#the-csv-as-a-job): the bytes of GET /api/v1/qrcodes.csv, built by a job. */
describe('the CSV of the list as an export job (e2e)', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  let folderId: string;
  const window = { from: new Date(Date.now() - 10 * DAY).toISOString(), to: new Date(Date.now() + DAY).toISOString() };

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key, accountId } = await t.newAccount());
    folderId = (await createFolder(t, key, 'Shop, front')).id;
    const link = await createQr(t, key, { name: '=Spring poster', is_dynamic: true, folder_id: folderId });
    await createQr(t, key, { name: 'Note', type: 'text', content: { text: 'line one\nline "two"' } });
    await t.prisma.scanEvent.createMany({
      data: ['a', 'b', 'a'].map((visitor) => ({
        eventId: randomUUID(),
        qrCodeId: link.id,
        scannedAt: new Date(Date.now() - 2 * DAY),
        device: 'mobile',
        os: 'iOS',
        browser: 'Mobile Safari',
        visitorHash: visitor.padEnd(32, '-'),
        isBot: false,
      })),
    });
    await t.prisma.qrCode.createMany({
      data: Array.from({ length: MANY }, (_, i) => ({
        accountId,
        name: `Poster ${i} ☕`,
        type: 'url',
        content: { url: `https://example.com/poster/${i}` },
        contentString: `https://example.com/poster/${i}`,
        folderId: i % 3 === 0 ? folderId : null,
        isDynamic: i % 2 === 0,
        shortCode: i % 2 === 0 ? `csvjob${i}` : null,
        createdAt: new Date(Date.now() - i * 1000),
      })),
    });
  }, 60_000);
  afterAll(() => t?.close());

  const post = (payload: object, headers: Record<string, string> = {}) =>
    t.request({ method: 'POST', url: '/api/v1/exports', headers: { ...auth(key), ...headers }, payload });

  async function finished(id: string): Promise<Job> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const job = (await t.request({ url: `/api/v1/exports/${id}`, headers: auth(key) })).json<Job>();
      if (job.status === 'done' || job.status === 'failed' || Date.now() > deadline) return job;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const cases: Array<{ name: string; query: Record<string, string>; file: string }> = [
    { name: 'the import view, every code', query: {}, file: 'qr-codes' },
    { name: 'the import view of a folder, by name', query: { view: 'import', folder_id: '', sort: 'name-asc' }, file: 'qr-codes' },
    { name: 'the report of dynamic codes, in a window', query: { view: 'report', is_dynamic: 'true', ...window }, file: 'qr-codes-report' },
    {
      name: 'the report of a search, oldest first, default window',
      query: { view: 'report', search: 'Poster 1', sort: 'oldest' },
      file: 'qr-codes-report',
    },
  ];

  it.each(cases)(
    '$name: the job writes the bytes GET qrcodes.csv streams for the same filters and view',
    async ({ query, file }) => {
      const filters = { ...query, ...(query.folder_id !== undefined && { folder_id: folderId }) };
      const streamed = await t.request({ url: `/api/v1/qrcodes.csv?${new URLSearchParams(filters).toString()}`, headers: auth(key) });
      expectStatus(streamed, 200);
      const codes = parse<Record<string, string>>(streamed.body, { columns: true }).length;
      expect(codes).toBeGreaterThan(1000);

      const created = await post({ format: 'csv', ...filters });
      expectStatus(created, 202);
      expect(created.json()).toMatchObject({ format: 'csv', view: query.view ?? 'import', total: codes, download_url: null });
      const job = await finished(created.json<Job>().id);
      expect(job).toMatchObject({ status: 'done', done: codes, total: codes, bytes: streamed.rawPayload.length });

      const download = await t.request({ url: `/api/v1/exports/${job.id}/download`, headers: auth(key) });
      expectStatus(download, 200);
      expect(download.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(download.headers['content-disposition']).toBe(`attachment; filename="${file}-${job.id.slice(0, 8)}.csv"`);
      expect(download.rawPayload.length).toBe(streamed.rawPayload.length);
      expect(download.rawPayload.equals(streamed.rawPayload)).toBe(true);
    },
    180_000,
  );

  it('an Idempotency-Key answers the same export again and queues nothing more', async () => {
    const idempotencyKey = randomUUID();
    const first = await post({ format: 'csv', view: 'report', type: 'text', ...window }, { 'idempotency-key': idempotencyKey });
    expectStatus(first, 202);
    const again = await post({ format: 'csv', view: 'report', type: 'text', ...window }, { 'idempotency-key': idempotencyKey });
    expectStatus(again, 202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<Job>().id).toBe(first.json<Job>().id);
    expect(await t.prisma.job.count({ where: { accountId, params: { path: ['filters', 'type'], equals: 'text' } } })).toBe(1);
    expectStatus(await post({ format: 'csv', view: 'report', type: 'url', ...window }, { 'idempotency-key': idempotencyKey }), 422);
    expect((await finished(first.json<Job>().id)).status).toBe('done');
  }, 60_000);

  it('a bad field is a 400 naming it, and nothing is queued', async () => {
    const before = await t.prisma.job.count();
    expectFieldErrors(await post({ format: 'csv', size: 300 }), 'size');
    expectFieldErrors(await post({ format: 'csv', width_mm: 40, dpi: 300 }), 'width_mm', 'dpi');
    expectFieldErrors(await post({ format: 'csv', ids: [randomUUID()] }), 'ids');
    expectFieldErrors(await post({ format: 'csv', view: 'table' }), 'view');
    expectFieldErrors(await post({ format: 'csv', from: window.from }), 'from');
    expectFieldErrors(await post({ format: 'csv', view: 'report', to: 'yesterday' }), 'to');
    expectFieldErrors(await post({ format: 'csv', sort: 'largest' }), 'sort');
    expectFieldErrors(await post({ format: 'svg', view: 'report' }), 'view');
    expect(await t.prisma.job.count()).toBe(before);
  });
});
