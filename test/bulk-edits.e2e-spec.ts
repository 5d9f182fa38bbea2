import type { LightMyRequestResponse } from 'fastify';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app';
import { auth, createFolder, expectErrorBody, expectFieldErrors, expectStatus, GENEROUS_RATE_LIMIT, getQr, updateQr } from './support/factories';

/**
 * Codes in the large bulk edit (a job): over 100. BULK_EDIT_E2E_CODES=10000 runs the size
 * (minutes on a loaded 2-core machine: see the closing note of issue 41); the default keeps the file short.
 */
const LARGE = Number(process.env.BULK_EDIT_E2E_CODES ?? 150);
const LARGE_TIMEOUT_MS = Math.max(120_000, LARGE * 60);

interface Result {
  id: string | null;
  dry_run: boolean;
  matched: number;
  changed: number;
  failed: number;
  sample: Array<{ id: string; before?: Record<string, unknown>; after?: Record<string, unknown> }>;
  errors: Array<{ id: string; errors: Array<{ field: string }> }>;
}
interface JobView {
  id: string;
  status: string;
  matched: number;
  done: number;
  changed: number | null;
  failed: number | null;
}

describe('bulk edits (e2e)', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;

  beforeAll(async () => {
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE: '1' });
    ({ key, accountId } = await t.newAccount());
  });
  afterAll(() => t?.close());

  const post = (path: 'bulk-update' | 'bulk-delete', payload: object, options: { dry?: boolean; apiKey?: string; headers?: object } = {}) =>
    t.request({
      method: 'POST',
      url: `/api/v1/qrcodes/${path}${options.dry ? '?dry_run=true' : ''}`,
      headers: { ...auth(options.apiKey ?? key), ...options.headers },
      payload,
    });
  const done = (res: LightMyRequestResponse): Result => {
    expectStatus(res, 200);
    return res.json<Result>();
  };
  const bulkCreate = async (apiKey: string, count: number, item: (index: number) => Record<string, unknown>) => {
    const ids: string[] = [];
    for (let start = 0; start < count; start += 50) {
      const items = Array.from({ length: Math.min(50, count - start) }, (_, offset) => ({
        type: 'url',
        content: { url: `https://example.com/${start + offset}` },
        ...item(start + offset),
      }));
      const res = await t.request({ method: 'POST', url: '/api/v1/qrcodes/bulk', headers: auth(apiKey), payload: { qrcodes: items } });
      expectStatus(res, 201);
      const body = res.json<{ created: Array<{ id: string }>; errors: unknown[] }>();
      expect(body.errors).toEqual([]);
      ids.push(...body.created.map((code) => code.id));
    }
    return ids;
  };
  const waitForJob = async (id: string, timeoutMs: number): Promise<JobView> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await t.request({ method: 'GET', url: `/api/v1/qrcodes/bulk-update/${id}`, headers: auth(key) });
      expectStatus(res, 200);
      const job = res.json<JobView>();
      if (job.status === 'done' || job.status === 'failed' || Date.now() > deadline) return job;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  it.each([
    ['neither filter nor ids', {}, 'filter'],
    ['both filter and ids', { filter: {}, ids: ['3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37'], set: { status: 'paused' } }, 'ids'],
    ['no change', { filter: {} }, 'set'],
    ['an unknown status', { filter: {}, set: { status: 'gone' } }, 'set.status'],
    ['a bad tag to add', { filter: {}, add_tags: ['ok', 'a|b'] }, 'add_tags[1]'],
    ['a tag added and removed', { filter: {}, add_tags: ['x'], remove_tags: ['X'] }, 'remove_tags'],
    ['a bad filter tag', { filter: { tag: ['a,b'] }, add_tags: ['x'] }, 'filter.tag[0]'],
    ['an unknown filter', { filter: { colour: 'red' }, add_tags: ['x'] }, 'filter.colour'],
    ['a target prefix that is no URL', { filter: {}, replace_target: { from: 'old', to: 'https://new.example/' } }, 'replace_target.from'],
    ['bad UTM', { filter: {}, set: { utm: { colour: 'red' } } }, 'set.utm.colour'],
    ['an expiry passed', { filter: {}, set: { expires_at: '2020-01-01T00:00:00Z' } }, 'set.expires_at'],
    ['a folder of no one', { filter: {}, set: { folder_id: '3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37' } }, 'set.folder_id'],
  ])('refuses %s with a 400 naming the field', async (_, payload, field) => {
    expectFieldErrors(await post('bulk-update', payload), field);
  });

  it('changes the codes of a filter within the request: the dry run counts what the real run changes, each audited with the request id', async () => {
    const folder = await createFolder(t, key, 'Small');
    const ids = await bulkCreate(key, 12, (index) => ({
      name: `Small ${index}`,
      content: { url: `https://old.example/p/${index}` },
      is_dynamic: index % 3 !== 0,
      tags: index < 10 ? ['small'] : ['other'],
      folder_id: folder.id,
    }));
    // One code already as asked: matched, not changed.
    expectStatus(await updateQr(t, key, ids[1], { status: 'paused', tags: ['small', 'sale'] }), 200);
    const payload = { filter: { tag: ['SMALL'], folder_id: folder.id }, set: { status: 'paused' }, add_tags: ['sale'] };
    const dry = done(await post('bulk-update', payload, { dry: true }));
    expect(dry).toMatchObject({ dry_run: true, matched: 10, failed: 0 });
    expect((await getQr(t, key, ids[2])).json<{ status: string }>().status).toBe('active');
    const real = await post('bulk-update', payload);
    const result = done(real);
    expect(result).toMatchObject({ dry_run: false, matched: 10, changed: dry.changed, failed: 0 });
    expect(dry.id).toBeNull();
    const readBack = await t.request({ method: 'GET', url: `/api/v1/qrcodes/bulk-update/${result.id}`, headers: auth(key) });
    expect(readBack.json()).toMatchObject({ status: 'done', operation: 'update', matched: 10, done: 10, changed: result.changed });
    expectErrorBody(await t.request({ method: 'GET', url: `/api/v1/qrcodes/bulk-delete/${result.id}`, headers: auth(key) }), 404);
    // Static codes get the tag only; dynamic ones the status too; ids[1] had both.
    expect(result.changed).toBe(9);
    expect(result.sample.find((item) => item.id === ids[2])).toMatchObject({
      before: { status: 'active', tags: ['small'] },
      after: { status: 'paused', tags: ['small', 'sale'] },
    });
    expect(await getQr(t, key, ids[2]).then((res) => res.json<{ status: string; tags: string[] }>())).toMatchObject({
      status: 'paused',
      tags: ['small', 'sale'],
    });
    expect(await getQr(t, key, ids[11]).then((res) => res.json<{ tags: string[] }>().tags)).toEqual(['other']);
    const audit = await t.prisma.auditLogEntry.findMany({
      where: { accountId, action: 'qrcode.update', requestId: real.headers['x-request-id'] as string },
    });
    expect(audit).toHaveLength(9);
    // Again: everything already matches.
    expect(done(await post('bulk-update', payload))).toMatchObject({ matched: 10, changed: 0 });
  });

  it('replaces a target prefix on url codes, recording a history version and a webhook per code', async () => {
    const hook = await t.request({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: auth(key),
      payload: { url: 'http://127.0.0.1:9/hook', events: ['qrcode.updated', 'qrcode.deleted'] },
    });
    expectStatus(hook, 201);
    const ids = await bulkCreate(key, 4, (index) => ({
      name: `Moved ${index}`,
      content: { url: `https://old.example/m/${index}` },
      is_dynamic: true,
      tags: ['moved'],
    }));
    const payload = { ids, replace_target: { from: 'https://old.example/', to: 'https://new.example/shop/' } };
    expect(done(await post('bulk-update', payload, { dry: true }))).toMatchObject({ matched: 4, changed: 4 });
    const result = done(await post('bulk-update', payload));
    expect(result).toMatchObject({ matched: 4, changed: 4 });
    expect(result.sample[0]).toMatchObject({ before: { target: 'https://old.example/m/0' }, after: { target: 'https://new.example/shop/m/0' } });
    expect((await t.prisma.qrCode.findUniqueOrThrow({ where: { id: ids[3] } })).content).toEqual({ url: 'https://new.example/shop/m/3' });
    expect(await t.prisma.qrCodeVersion.count({ where: { qrCodeId: { in: ids }, version: 2 } })).toBe(4);
    const events = await t.prisma.webhookEvent.findMany({ where: { accountId, type: 'qrcode.updated' } });
    expect(ids.every((id) => events.some((event) => event.body.includes(id)))).toBe(true);
  });

  it(
    `runs a bulk update of ${LARGE} codes by filter as a job, with audit, history and a webhook per code`,
    async () => {
      const ids = await bulkCreate(key, LARGE, (index) => ({
        name: `Mass ${index}`,
        content: { url: `https://old.example/x/${index}` },
        is_dynamic: true,
        tags: ['mass'],
      }));
      const payload = {
        filter: { tag: ['mass'] },
        set: { status: 'paused' },
        add_tags: ['mass-moved'],
        replace_target: { from: 'https://old.example/', to: 'https://new.example/' },
      };
      const dry = done(await post('bulk-update', payload, { dry: true }));
      expect(dry).toMatchObject({ matched: LARGE, changed: LARGE });
      const started = Date.now();
      const queued = await post('bulk-update', payload, { headers: { 'idempotency-key': 'mass-edit-1' } });
      expectStatus(queued, 202);
      const replay = await post('bulk-update', payload, { headers: { 'idempotency-key': 'mass-edit-1' } });
      expectStatus(replay, 202);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json<JobView>().id).toBe(queued.json<JobView>().id);
      const job = await waitForJob(queued.json<JobView>().id, LARGE_TIMEOUT_MS);
      console.log(`bulk update of ${LARGE} codes as a job: ${Date.now() - started} ms`);
      expect(job).toMatchObject({ status: 'done', matched: LARGE, done: LARGE, changed: dry.changed, failed: 0 });
      const requestId = queued.headers['x-request-id'] as string;
      expect(await t.prisma.auditLogEntry.count({ where: { accountId, action: 'qrcode.update', requestId } })).toBe(LARGE);
      expect(await t.prisma.qrCodeVersion.count({ where: { qrCodeId: { in: ids }, version: 2 } })).toBe(LARGE);
      const events = await t.prisma.webhookEvent.count({ where: { accountId, type: 'qrcode.updated', body: { contains: '"mass-moved"' } } });
      expect(events).toBe(LARGE);
      expect(
        (await t.request({ method: 'GET', url: '/api/v1/qrcodes?tag=mass&tag=mass-moved&status=paused&limit=1', headers: auth(key) })).json(),
      ).toMatchObject({
        pagination: { total: LARGE },
      });
    },
    LARGE_TIMEOUT_MS + 120_000,
  );

  it('lets a single edit and a bulk edit of one code race: both audited, the last write wins', async () => {
    const [id] = await bulkCreate(key, 1, () => ({ name: 'Raced', is_dynamic: true, tags: ['raced'] }));
    for (let round = 0; round < 3; round++) {
      const [bulk, single] = await Promise.all([
        post('bulk-update', { ids: [id], set: { status: 'paused' }, add_tags: [`round-${round}`] }),
        updateQr(t, key, id, { status: 'active', name: `Raced ${round}` }),
      ]);
      expectStatus(bulk, 200);
      expectStatus(single, 200);
      const entries = await t.prisma.auditLogEntry.findMany({
        where: { accountId, action: 'qrcode.update', resourceId: id },
        orderBy: { seq: 'asc' },
      });
      const requestIds = entries.map((entry) => entry.requestId);
      expect(requestIds).toEqual(expect.arrayContaining([single.headers['x-request-id'], bulk.headers['x-request-id']]));
      const last = entries[entries.length - 1].changes as { after: { status?: string } };
      const code = (await getQr(t, key, id)).json<{ status: string; name: string; tags: string[] }>();
      // Neither write is lost: the tag of the bulk edit and the name of the single one are both there, the status is the later write's.
      expect(code.tags).toContain(`round-${round}`);
      expect(code.name).toBe(`Raced ${round}`);
      if (last.after.status) expect(code.status).toBe(last.after.status);
      await updateQr(t, key, id, { status: 'active' });
    }
  });

  it('lets a folder-restricted key edit and delete only the codes of its folders', async () => {
    const mine = await createFolder(t, key, 'Key folder');
    const theirs = await createFolder(t, key, 'Other folder');
    const inMine = await bulkCreate(key, 3, (index) => ({ name: `Mine ${index}`, folder_id: mine.id, tags: ['fenced'] }));
    const inTheirs = await bulkCreate(key, 2, (index) => ({ name: `Theirs ${index}`, folder_id: theirs.id, tags: ['fenced'] }));
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/admin/api-keys',
      headers: { 'x-admin-token': ADMIN_TOKEN },
      payload: { name: 'fenced key', account_id: accountId, folder_ids: [mine.id] },
    });
    const fenced = created.json<{ key: string }>().key;
    expect(done(await post('bulk-update', { filter: { tag: ['fenced'] }, add_tags: ['seen'] }, { apiKey: fenced }))).toMatchObject({
      matched: 3,
      changed: 3,
    });
    expect((await getQr(t, key, inTheirs[0])).json<{ tags: string[] }>().tags).toEqual(['fenced']);
    expectFieldErrors(await post('bulk-update', { filter: {}, set: { folder_id: theirs.id } }, { apiKey: fenced }), 'set.folder_id');
    expectFieldErrors(await post('bulk-update', { filter: {}, set: { folder_id: null } }, { apiKey: fenced }), 'set.folder_id');
    expectErrorBody(await post('bulk-update', { ids: [inTheirs[0]], add_tags: ['x'] }, { apiKey: fenced }), 404);
    expect(done(await post('bulk-delete', { filter: { tag: ['fenced'] } }, { apiKey: fenced }))).toMatchObject({ matched: 3, changed: 3 });
    expectStatus(await getQr(t, key, inTheirs[1]), 200);
    expectErrorBody(await getQr(t, key, inMine[0]), 404);
  });

  it('deletes by filter: the dry run counts, the real run deletes, each code audited', async () => {
    const ids = await bulkCreate(key, 5, (index) => ({ name: `Gone ${index}`, tags: ['gone'] }));
    expect(done(await post('bulk-delete', { filter: { tag: ['gone'] } }, { dry: true }))).toMatchObject({ dry_run: true, matched: 5, changed: 5 });
    expectStatus(await getQr(t, key, ids[0]), 200);
    const real = await post('bulk-delete', { filter: { tag: ['gone'] } });
    expect(done(real)).toMatchObject({ matched: 5, changed: 5 });
    expect(await t.prisma.qrCode.count({ where: { id: { in: ids } } })).toBe(0);
    expect(
      await t.prisma.auditLogEntry.count({ where: { accountId, action: 'qrcode.delete', requestId: real.headers['x-request-id'] as string } }),
    ).toBe(5);
  });
});
