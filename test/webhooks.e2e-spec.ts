import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { QrCodeEvents } from '../src/qrcodes/qr-code-events';
import type { QrCodeRecord } from '../src/qrcodes/qr-code.record';
import { Database } from '../src/infra/database/database.service';
import type { AccountId } from '../src/common/ids/account-id';
import type { QrCodeId } from '../src/common/ids/resource-ids';
import { ScanBuffer } from '../src/scans/scan-buffer.service';
import { DeliveryWorker } from '../src/webhooks/delivery/delivery-worker.service';
import { JobRunner } from '../src/infra/jobs/job-runner.service';
import {
  auth,
  createFolder,
  createQr,
  eventually,
  expectStatus,
  GENEROUS_RATE_LIMIT,
  NO_SUCH_ID,
  TestClock,
  UUID,
  updateQr,
} from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';
import { HAS_POSTGRES, itWhen } from './support/environment';
import { type ReceivedWebhook, WebhookReceiver } from './support/webhook-receiver';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const S = 1000;
const H = 3_600_000;

type Json = Record<string, any>;

describe('webhooks (e2e)', () => {
  const clock = new TestClock();
  let t: TestApp;
  let key: string;
  let accountId: string;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE: '1' }, { clock });
    ({ key, accountId } = await t.newAccount());
  });
  afterAll(async () => {
    for (const receiver of receivers) await receiver.stop();
    await t.close();
  });

  async function receiver(): Promise<WebhookReceiver> {
    const created = new WebhookReceiver();
    await created.start();
    receivers.push(created);
    return created;
  }

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, apiKey = key) =>
    t.request({ method, url, headers: auth(apiKey), ...(payload === undefined ? {} : { payload: payload as Json }) });

  async function createWebhook(body: Json, apiKey = key): Promise<Json> {
    const res = await api('POST', '/api/v1/webhooks', body, apiKey);
    expectStatus(res, 201);
    return res.json();
  }

  const nudge = () => t.app.get(DeliveryWorker).nudge();
  const deliveriesOf = async (id: string, query = '') => (await api('GET', `/api/v1/webhooks/${id}/deliveries${query}`)).json<Json>();
  const deliveryOf = async (id: string, deliveryId: string) => (await api('GET', `/api/v1/webhooks/${id}/deliveries/${deliveryId}`)).json<Json>();
  const deliveryOf2 = async (apiKey: string, id: string, deliveryId: string) =>
    (await api('GET', `/api/v1/webhooks/${id}/deliveries/${deliveryId}`, undefined, apiKey)).json<Json>();
  const flushScans = () => t.app.get(ScanBuffer).flush();
  /** The verifier checks the timestamp against the real time; the app signs with the test's clock, which may be ahead. */
  function verifyOnTheClock(secret: string, received: ReceivedWebhook): unknown {
    const realNow = Date.now;
    Date.now = () => clock.now().getTime();
    try {
      return new Webhook(secret).verify(received.body, headersOf(received));
    } finally {
      Date.now = realNow;
    }
  }
  const typeOf = (received: ReceivedWebhook) => (JSON.parse(received.body) as { type: string }).type;
  const headersOf = (received: ReceivedWebhook) => ({
    'webhook-id': String(received.headers['webhook-id']),
    'webhook-timestamp': String(received.headers['webhook-timestamp']),
    'webhook-signature': String(received.headers['webhook-signature']),
  });

  describe('endpoints', () => {
    // An account of its own, which makes no codes: these endpoints' example.com URLs are never called.
    let crudKey: string;
    beforeAll(async () => {
      crudKey = (await t.newAccount()).key;
    });
    it('reads one clock per write: a new endpoint’s updated_at is its created_at', async () => {
      const created = await createWebhook({ url: 'https://hooks.example.com/clock', events: ['qrcode.created'] }, crudKey);
      expect(created.updated_at).toBe(created.created_at);
    });

    it('creates an endpoint and shows its whsec_ secret only in that answer', async () => {
      const receiverUrl = 'https://hooks.example.com/qr';
      const created = await createWebhook({ url: receiverUrl, events: ['qrcode.scanned'], description: 'CRM' }, crudKey);
      expect(created).toMatchObject({
        url: receiverUrl,
        events: ['qrcode.scanned'],
        description: 'CRM',
        enabled: true,
        disabled_reason: null,
        folder_id: null,
        qrcode_ids: [],
      });
      expect(created.id).toMatch(UUID);
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const got = (await api('GET', `/api/v1/webhooks/${created.id}`, undefined, crudKey)).json();
      expect(got).not.toHaveProperty('secret');
      expect(JSON.stringify((await api('GET', '/api/v1/webhooks', undefined, crudKey)).json())).not.toContain(created.secret);
      const stored = await t.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
      expect(JSON.stringify(stored)).not.toContain(created.secret.slice(6));
    });

    it('changes only the fields sent, and deletes', async () => {
      const created = await createWebhook({ url: 'https://hooks.example.com/a', events: ['*'] }, crudKey);
      const patched = await api(
        'PATCH',
        `/api/v1/webhooks/${created.id}`,
        { description: 'renamed', events: ['qrcode.created', 'qrcode.deleted'] },
        crudKey,
      );
      expectStatus(patched, 200);
      expect(patched.json()).toMatchObject({
        url: 'https://hooks.example.com/a',
        description: 'renamed',
        events: ['qrcode.created', 'qrcode.deleted'],
      });
      expectStatus(await api('DELETE', `/api/v1/webhooks/${created.id}`, undefined, crudKey), 200);
      expectStatus(await api('GET', `/api/v1/webhooks/${created.id}`, undefined, crudKey), 404);
    });

    it('keeps endpoints to their account: another account gets 404 for every operation', async () => {
      const created = await createWebhook({ url: 'https://hooks.example.com/mine', events: ['*'] }, crudKey);
      const other = (await t.newAccount()).key;
      for (const [method, path] of [
        ['GET', ''],
        ['PATCH', ''],
        ['DELETE', ''],
        ['POST', '/rotate-secret'],
        ['POST', '/test'],
        ['GET', '/deliveries'],
        ['POST', `/replay?from=${new Date(clock.now().getTime() - H).toISOString()}`],
      ] as const) {
        const res = await api(method, `/api/v1/webhooks/${created.id}${path}`, method === 'PATCH' ? { description: 'x' } : undefined, other);
        expect([method, path, res.statusCode]).toEqual([method, path, 404]);
      }
      expect((await api('GET', '/api/v1/webhooks', undefined, other)).json().data).toEqual([]);
    });

    it.each([
      [{ url: 'ftp://x.example/', events: ['*'] }, 'url'],
      [{ url: 'https://u:p@x.example/', events: ['*'] }, 'url'],
      [{ url: 'https://x.example/', events: [] }, 'events'],
      [{ url: 'https://x.example/', events: ['qrcode.exploded'] }, 'events'],
      [{ url: 'https://x.example/', events: ['webhook.test'] }, 'events'],
      [{ url: 'https://x.example/', events: ['*'], folder_id: 'nope' }, 'folder_id'],
      [{ url: 'https://x.example/', events: ['*'], folder_id: NO_SUCH_ID }, 'folder_id'],
      [{ url: 'https://x.example/', events: ['*'], qrcode_ids: [NO_SUCH_ID] }, 'qrcode_ids'],
      [{ url: 'https://x.example/', events: ['*'], qrcode_ids: ['x'] }, 'qrcode_ids'],
      [{ events: ['*'] }, 'url'],
      [{ url: 'https://x.example/', events: ['*'], description: null }, 'description'],
      [{ url: 'https://x.example/', events: ['*'], enabled: null }, 'enabled'],
      [{ url: 'https://x.example/', events: ['*'], qrcode_ids: null }, 'qrcode_ids'],
    ])('refuses %j naming %s', async (body, field) => {
      const res = await api('POST', '/api/v1/webhooks', body, crudKey);
      expectStatus(res, 400);
      expect(res.json().errors.map((error: { field: string }) => error.field)).toContain(field);
    });

    it.each([['description'], ['url'], ['events'], ['enabled'], ['qrcode_ids']])(
      'refuses a null %s on update, naming it (only folder_id takes null), and changes nothing',
      async (field) => {
        const webhook = await createWebhook({ url: 'https://x.example/nulls', events: ['*'], description: 'kept' }, crudKey);
        const res = await api('PATCH', `/api/v1/webhooks/${webhook.id}`, { [field]: null, folder_id: null }, crudKey);
        expectStatus(res, 400);
        expect(res.json().errors.map((error: { field: string }) => error.field)).toEqual([field]);
        expect((await api('GET', `/api/v1/webhooks/${webhook.id}`, undefined, crudKey)).json()).toMatchObject({
          url: 'https://x.example/nulls',
          events: ['*'],
          description: 'kept',
          enabled: true,
        });
        await api('DELETE', `/api/v1/webhooks/${webhook.id}`, undefined, crudKey);
      },
    );

    it('answers 400 `id must be a UUID` for a malformed id', async () => {
      const res = await api('GET', '/api/v1/webhooks/not-a-uuid');
      expectStatus(res, 400);
      expect(res.json().errors).toEqual([{ field: 'id', message: 'id must be a UUID' }]);
    });
  });

  describe('delivery', () => {
    it('sends each event type once, signed so the Standard Webhooks verifier accepts it and refuses a changed body or old timestamp', async () => {
      const hook = await receiver();
      const webhook = await createWebhook({ url: hook.url(), events: ['*'] });
      const code = await createQr(t, key, { is_dynamic: true, name: 'Poster' });
      expectStatus(await updateQr(t, key, code.id, { name: 'Poster 2' }), 200);
      expectStatus(
        await t.request({
          method: 'GET',
          url: `/r/${code.short_code}`,
          headers: { 'user-agent': IPHONE, referer: 'https://news.example/story?id=1' },
        }),
        302,
      );
      await flushScans();
      expectStatus(await api('DELETE', `/api/v1/qrcodes/${code.id}`), 200);
      expectStatus(await api('POST', `/api/v1/webhooks/${webhook.id}/test`), 202);
      const types = ['qrcode.created', 'qrcode.updated', 'qrcode.scanned', 'qrcode.deleted', 'webhook.test'];
      expect(await eventually(async () => hook.received.length, types.length, 10_000)).toBe(types.length);
      expect(hook.received.map(typeOf).sort()).toEqual([...types].sort());

      const verifier = new Webhook(webhook.secret);
      for (const received of hook.received) {
        expect(verifier.verify(received.body, headersOf(received))).toEqual(JSON.parse(received.body));
        expect(received.headers['content-type']).toBe('application/json');
        expect(() => verifier.verify(received.body.replace('"data"', '"datA"'), headersOf(received))).toThrow('No matching signature found');
      }
      const sixMinutesLater = Date.now() + 6 * 60 * S;
      const realNow = Date.now;
      Date.now = () => sixMinutesLater;
      try {
        expect(() => verifier.verify(hook.received[0].body, headersOf(hook.received[0]))).toThrow('Message timestamp too old');
      } finally {
        Date.now = realNow;
      }

      const body = (type: string) => JSON.parse(hook.received.find((received) => typeOf(received) === type)!.body) as Json;
      expect(body('qrcode.created')).toMatchObject({
        type: 'qrcode.created',
        data: { qrcode: { id: code.id, name: 'Poster', short_code: code.short_code, is_dynamic: true } },
      });
      expect(body('qrcode.updated').data).toMatchObject({ qrcode: { id: code.id, name: 'Poster 2' }, changed_fields: ['name'] });
      expect(body('qrcode.deleted').data).toMatchObject({ qrcode: { id: code.id, name: 'Poster 2' } });
      const scanned = body('qrcode.scanned');
      expect(scanned.data.qrcode).toEqual({ id: code.id, short_code: code.short_code });
      expect(scanned.data.scans).toEqual([
        {
          id: expect.stringMatching(UUID),
          scanned_at: expect.any(String),
          device: 'mobile',
          os: 'iOS',
          browser: 'Mobile Safari',
          referrer_host: 'news.example',
          // Light-my-request's 127.0.0.1: no country in the bundled database.
          country: null,
          city: null,
          visitor_hash: expect.stringMatching(/^[0-9a-f]{32}$/),
        },
      ]);
      expect(body('webhook.test').data.webhook).toEqual({ id: webhook.id, url: hook.url() });
      for (const received of hook.received) expect(JSON.parse(received.body).timestamp).toMatch(/Z$/);
      expect(new Set(hook.received.map((received) => received.headers['webhook-id'])).size).toBe(types.length);
      await api('DELETE', `/api/v1/webhooks/${webhook.id}`);
    });

    it('writes events in the transaction of the change: a rolled-back change leaves none', async () => {
      const hook = await receiver();
      const webhook = await createWebhook({ url: hook.url(), events: ['qrcode.created'] });
      const code = await createQr(t, key);
      const record = { ...(await t.prisma.qrCode.findUniqueOrThrow({ where: { id: code.id } })), id: code.id as QrCodeId } as unknown as QrCodeRecord;
      const before = await t.prisma.webhookEvent.count({ where: { accountId } });
      await expect(
        t.app.get(Database).transaction(async (tx) => {
          await t.app.get(QrCodeEvents).recordInTransaction(tx, { kind: 'created', accountId: accountId as AccountId, codes: [record], bulk: false });
          expect(
            await tx
              .forAccount(accountId as AccountId)
              .selectFrom('webhook_events')
              .select('id')
              .execute(),
          ).toHaveLength(before + 1);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await t.prisma.webhookEvent.count({ where: { accountId } })).toBe(before);
      await api('DELETE', `/api/v1/webhooks/${webhook.id}`);
    });

    it('retries a receiver answering 500, 500, then 200: exactly three attempts, logged, on the documented schedule', async () => {
      const hook = await receiver();
      hook.respond = (_, index) => (index < 2 ? { status: 500, body: `{"error":"boom ${index}"}` } : { status: 200, body: 'ok' });
      const webhook = await createWebhook({ url: hook.url(), events: ['qrcode.created'] });
      await createQr(t, key);
      expect(await eventually(async () => hook.received.length, 1)).toBe(1);
      const [delivery] = (await deliveriesOf(webhook.id)).data as Json[];
      expect(await eventually(async () => (await deliveryOf(webhook.id, delivery.id)).attempts.length, 1)).toBe(1);
      let detail = await deliveryOf(webhook.id, delivery.id);
      expect(detail).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: 500 });
      const firstRetryIn = Date.parse(detail.next_attempt_at) - Date.parse(detail.attempts[0].attempted_at);
      expect(firstRetryIn).toBeGreaterThanOrEqual(8 * S);
      expect(firstRetryIn).toBeLessThanOrEqual(12 * S);
      // Nothing more happens until the retry is due.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(hook.received).toHaveLength(1);

      clock.advance(12 * S);
      nudge();
      expect(await eventually(async () => (await deliveryOf(webhook.id, delivery.id)).attempts.length, 2)).toBe(2);
      detail = await deliveryOf(webhook.id, delivery.id);
      const secondRetryIn = Date.parse(detail.next_attempt_at) - Date.parse(detail.attempts[1].attempted_at);
      expect(secondRetryIn).toBeGreaterThanOrEqual(24 * S);
      expect(secondRetryIn).toBeLessThanOrEqual(36 * S);

      clock.advance(36 * S);
      nudge();
      expect(await eventually(async () => (await deliveryOf(webhook.id, delivery.id)).status, 'succeeded')).toBe('succeeded');
      await new Promise((resolve) => setTimeout(resolve, 300));
      detail = await deliveryOf(webhook.id, delivery.id);
      expect(hook.received).toHaveLength(3);
      expect(new Set(hook.received.map((received) => received.headers['webhook-id']))).toEqual(new Set([detail.event_id]));
      expect(detail).toMatchObject({ attempt_count: 3, last_status_code: 200, next_attempt_at: null, last_error: null });
      expect(detail.attempts.map((attempt: Json) => [attempt.status_code, attempt.outcome, attempt.response_snippet])).toEqual([
        [500, 'retrying', '{"error":"boom 0"}'],
        [500, 'retrying', '{"error":"boom 1"}'],
        [200, 'succeeded', 'ok'],
      ]);
      for (const attempt of detail.attempts) expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
      expect(detail.payload).toMatchObject({ type: 'qrcode.created' });
      await api('DELETE', `/api/v1/webhooks/${webhook.id}`);
    });

    it('keeps at most 1 KB of a response, and fails at once on a 4xx or a redirect (not followed)', async () => {
      const hook = await receiver();
      hook.respond = (_, index) =>
        index === 0 ? { status: 410, body: 'x'.repeat(5000) } : { status: 302, headers: { location: 'http://169.254.169.254/' } };
      const webhook = await createWebhook({ url: hook.url(), events: ['qrcode.created'] });
      await createQr(t, key);
      await createQr(t, key);
      const finished = async () => ((await deliveriesOf(webhook.id, '?status=failed')).data as Json[]).length;
      expect(await eventually(finished, 2)).toBe(2);
      const details = await Promise.all(((await deliveriesOf(webhook.id)).data as Json[]).map((d) => deliveryOf(webhook.id, d.id)));
      const byStatus = new Map(details.map((detail) => [detail.attempts[0].status_code, detail.attempts[0]]));
      expect(byStatus.get(410)).toMatchObject({ outcome: 'failed' });
      expect(byStatus.get(410).response_snippet).toBe('x'.repeat(1024));
      expect(byStatus.get(302)).toMatchObject({ outcome: 'failed', error: 'redirect to http://169.254.169.254/ not followed' });
      expect(hook.received).toHaveLength(2);
      await api('DELETE', `/api/v1/webhooks/${webhook.id}`);
    });

    it('delivers all 1,000 scans made while the receiver was down once it is up, each webhook-id once after dedupe', async () => {
      const hook = await receiver();
      const code = await createQr(t, key, { is_dynamic: true });
      const webhook = await createWebhook({ url: hook.url(), events: ['qrcode.scanned'], qrcode_ids: [code.id] });
      await hook.stop();
      for (let i = 0; i < 10; i++) {
        await Promise.all(
          Array.from({ length: 100 }, () => t.request({ method: 'GET', url: `/r/${code.short_code}`, headers: { 'user-agent': IPHONE } })),
        );
        await flushScans();
      }
      const failedAttempts = async () => Number((await t.prisma.webhookAttempt.count({ where: { delivery: { endpointId: webhook.id } } })) > 0);
      expect(await eventually(failedAttempts, 1)).toBe(1);
      expect(hook.received).toHaveLength(0);
      await hook.start();
      const scanIds = new Map<string, string>();
      const collect = () => {
        const seen = new Set<string>();
        for (const received of hook.received) {
          const id = String(received.headers['webhook-id']);
          if (seen.has(id)) continue;
          seen.add(id);
          for (const scan of (JSON.parse(received.body) as Json).data.scans as Json[]) {
            expect(scanIds.get(scan.id) ?? id).toBe(id);
            scanIds.set(scan.id, id);
          }
        }
        return scanIds.size;
      };
      for (let step = 0; step < 10 && collect() < 1000; step++) {
        clock.advance(5 * 60 * S);
        nudge();
        await eventually(async () => collect(), 1000, 2000);
      }
      expect(collect()).toBe(1000);
      const stored = await t.prisma.scanEvent.findMany({ where: { qrCodeId: code.id }, select: { eventId: true } });
      expect(new Set(scanIds.keys())).toEqual(new Set(stored.map((row) => row.eventId)));
      for (const received of hook.received) expect(verifyOnTheClock(webhook.secret, received)).toBeTruthy();
      expect(await eventually(async () => (await deliveriesOf(webhook.id, '?status=pending')).pagination.total as number, 0)).toBe(0);
      await api('DELETE', `/api/v1/webhooks/${webhook.id}`);
    });

    it('writes no event for scans of codes nobody subscribed to', async () => {
      const code = await createQr(t, key, { is_dynamic: true });
      await t.request({ method: 'GET', url: `/r/${code.short_code}`, headers: { 'user-agent': IPHONE } });
      await flushScans();
      expect(await t.prisma.scanEvent.count({ where: { qrCodeId: code.id } })).toBe(1);
      expect(await t.prisma.webhookEvent.count({ where: { body: { contains: code.id } } })).toBe(0);
    });

    it('sends a folder-scoped endpoint only the events of codes in that folder', async () => {
      const hook = await receiver();
      const folder = await createFolder(t, key, 'Scoped');
      const webhook = await createWebhook({ url: hook.url(), events: ['qrcode.created'], folder_id: folder.id });
      const inside = await createQr(t, key, { folder_id: folder.id });
      await createQr(t, key);
      expect(await eventually(async () => hook.received.length, 1)).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(hook.received.map((received) => (JSON.parse(received.body) as Json).data.qrcode.id)).toEqual([inside.id]);
      await api('DELETE', `/api/v1/webhooks/${webhook.id}`);
    });

    it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
      const hook = await receiver();
      const webhook = await createWebhook({ url: hook.url(), events: ['qrcode.created'] });
      const rotated = await api('POST', `/api/v1/webhooks/${webhook.id}/rotate-secret`);
      expectStatus(rotated, 200);
      const { secret, previous_secret_expires_at } = rotated.json();
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(webhook.secret);
      expect(Date.parse(previous_secret_expires_at) - clock.now().getTime()).toBeGreaterThan(24 * H - 60 * S);
      await api('POST', `/api/v1/webhooks/${webhook.id}/test`);
      expect(await eventually(async () => hook.received.length, 1)).toBe(1);
      const during = hook.received[0];
      expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verifyOnTheClock(secret, during)).toBeTruthy();
      expect(verifyOnTheClock(webhook.secret, during)).toBeTruthy();

      clock.advance(24 * H + S);
      await api('POST', `/api/v1/webhooks/${webhook.id}/test`);
      expect(await eventually(async () => hook.received.length, 2)).toBe(2);
      const after = hook.received[1];
      expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(verifyOnTheClock(secret, after)).toBeTruthy();
      expect(() => verifyOnTheClock(webhook.secret, after)).toThrow('No matching signature found');
      await api('DELETE', `/api/v1/webhooks/${webhook.id}`);
    });

    it('disables an endpoint after 5 days of failures, says why, and re-enables it on request', async () => {
      const hook = await receiver();
      hook.respond = () => ({ status: 503 });
      const webhook = await createWebhook({ url: hook.url(), events: ['qrcode.updated'] });
      await api('POST', `/api/v1/webhooks/${webhook.id}/test`);
      expect(await eventually(async () => t.prisma.webhookAttempt.count({ where: { delivery: { endpointId: webhook.id } } }), 1)).toBe(1);
      clock.advance(4 * 24 * H);
      await api('POST', `/api/v1/webhooks/${webhook.id}/test`);
      const attempts = () => t.prisma.webhookAttempt.count({ where: { delivery: { endpointId: webhook.id } } });
      expect(await eventually(async () => (await attempts()) >= 3, true)).toBe(true);
      expect((await api('GET', `/api/v1/webhooks/${webhook.id}`)).json()).toMatchObject({ enabled: true, disabled_reason: null });

      clock.advance(24 * H + 60 * S);
      await api('POST', `/api/v1/webhooks/${webhook.id}/test`);
      expect(await eventually(async () => (await api('GET', `/api/v1/webhooks/${webhook.id}`)).json().enabled, false)).toBe(false);
      const disabled = (await api('GET', `/api/v1/webhooks/${webhook.id}`)).json();
      expect(disabled.disabled_reason).toMatch(/every delivery failed since .* \(last: HTTP 503\)/);
      // A disabled endpoint gets no new events, and its retries wait.
      const code = await createQr(t, key);
      expectStatus(await updateQr(t, key, code.id, { name: 'changed' }), 200);
      expect((await deliveriesOf(webhook.id, '?event_type=qrcode.updated')).pagination.total).toBe(0);

      hook.respond = () => ({ status: 200 });
      const enabled = await api('PATCH', `/api/v1/webhooks/${webhook.id}`, { enabled: true });
      expect(enabled.json()).toMatchObject({ enabled: true, disabled_reason: null });
      await api('DELETE', `/api/v1/webhooks/${webhook.id}`);
    });
  });

  describe('delivery log', () => {
    it('pages and filters deliveries, shows attempts, redelivers with the same webhook-id, and replays a window', async () => {
      const { key: own } = await t.newAccount();
      const hook = await receiver();
      hook.respond = (received) =>
        (JSON.parse(received.body) as Json).type === 'webhook.test' ? { status: 400, body: 'no tests here' } : { status: 200 };
      const webhook = await createWebhook({ url: hook.url(), events: ['qrcode.created'] }, own);
      for (let i = 0; i < 3; i++) await createQr(t, own);
      await api('POST', `/api/v1/webhooks/${webhook.id}/test`, undefined, own);
      const list = async (query = '') => (await api('GET', `/api/v1/webhooks/${webhook.id}/deliveries${query}`, undefined, own)).json<Json>();
      expect(await eventually(async () => (await list('?status=succeeded')).pagination.total, 3)).toBe(3);
      expect(await eventually(async () => (await list('?status=failed')).pagination.total, 1)).toBe(1);
      const page = await list('?limit=2&page=2');
      expect(page.pagination).toEqual({ page: 2, limit: 2, total: 4, total_pages: 2 });
      expect(page.data).toHaveLength(2);
      const [failed] = (await list('?event_type=webhook.test')).data as Json[];
      expect(failed).toMatchObject({ webhook_id: webhook.id, event_type: 'webhook.test', status: 'failed', attempt_count: 1, last_status_code: 400 });
      expectStatus(await api('GET', `/api/v1/webhooks/${webhook.id}/deliveries?status=lost`, undefined, own), 400);
      expectStatus(await api('GET', `/api/v1/webhooks/${webhook.id}/deliveries/not-an-id`, undefined, own), 400);
      expectStatus(await api('GET', `/api/v1/webhooks/${webhook.id}/deliveries/${NO_SUCH_ID}`, undefined, own), 404);

      hook.respond = () => ({ status: 204 });
      const redelivered = await api('POST', `/api/v1/webhooks/${webhook.id}/deliveries/${failed.id}/redeliver`, undefined, own);
      expectStatus(redelivered, 202);
      expect(redelivered.json()).toMatchObject({ id: failed.id, status: 'pending' });
      expect(await eventually(async () => (await deliveryOf2(own, webhook.id, failed.id)).status, 'succeeded')).toBe('succeeded');
      const detail = await deliveryOf2(own, webhook.id, failed.id);
      expect(detail.attempts.map((attempt: Json) => [attempt.status_code, attempt.outcome])).toEqual([
        [400, 'failed'],
        [204, 'succeeded'],
      ]);
      const testIds = hook.ofType('webhook.test').map((received) => received.headers['webhook-id']);
      expect(testIds).toEqual([failed.event_id, failed.event_id]);

      const before = hook.received.length;
      const from = new Date(clock.now().getTime() - H).toISOString();
      const replayed = await api('POST', `/api/v1/webhooks/${webhook.id}/replay?from=${encodeURIComponent(from)}`, undefined, own);
      expectStatus(replayed, 202);
      expect(replayed.json()).toEqual({ queued: 4, next_from: null, request_id: expect.any(String) });
      expect(await eventually(async () => hook.received.length, before + 4)).toBe(before + 4);
      expect(new Set(hook.received.slice(before).map((received) => received.headers['webhook-id']))).toEqual(
        new Set(hook.received.slice(0, before).map((received) => received.headers['webhook-id'])),
      );
    });

    it('refuses a replay window that is backwards or older than the 30 days events are kept, and limits replays to 10 an hour', async () => {
      const { key: own } = await t.newAccount();
      const webhook = await createWebhook({ url: 'http://127.0.0.1:9/never', events: ['qrcode.created'] }, own);
      const replay = (query: string) => api('POST', `/api/v1/webhooks/${webhook.id}/replay?${query}`, undefined, own);
      const now = clock.now().getTime();
      const backwards = await replay(`from=${new Date(now).toISOString()}&to=${new Date(now - H).toISOString()}`);
      expectStatus(backwards, 400);
      expect(backwards.json().errors).toEqual([{ field: 'to', message: 'to must be later than from' }]);
      expect((await replay(`from=${new Date(now - 31 * 24 * H).toISOString()}`)).json().errors[0].field).toBe('from');
      expect((await replay('from=yesterday')).json().errors[0]).toEqual({ field: 'from', message: 'from must be an ISO 8601 date-time' });
      expectStatus(await replay(''), 400);
      const window = `from=${new Date(now - H).toISOString()}`;
      for (let i = 0; i < 10; i++) expectStatus(await replay(window), 202);
      const limited = await replay(window);
      expectStatus(limited, 429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests', request_id: expect.any(String) });
    });

    it('caps a replay at 1,000 deliveries and says where to continue', async () => {
      const { key: own, accountId: ownAccount } = await t.newAccount();
      const webhook = await createWebhook({ url: 'http://127.0.0.1:9/never', events: ['qrcode.created'], enabled: false }, own);
      const base = clock.now().getTime() - 2 * H;
      const events = Array.from({ length: 1001 }, (_, i) => ({
        id: randomUUID(),
        accountId: ownAccount,
        type: 'qrcode.created',
        occurredAt: new Date(base + i * S),
        body: '{}',
      }));
      await t.prisma.webhookEvent.createMany({ data: events });
      await t.prisma.webhookDelivery.createMany({
        data: events.map((event) => ({
          id: randomUUID(),
          accountId: ownAccount,
          endpointId: webhook.id,
          eventId: event.id,
          eventType: event.type,
          status: 'succeeded',
          createdAt: event.occurredAt,
        })),
      });
      expectStatus(await api('PATCH', `/api/v1/webhooks/${webhook.id}`, { url: 'http://127.0.0.1:9/still-never' }, own), 200);
      const disabledReplay = await api('POST', `/api/v1/webhooks/${webhook.id}/replay?from=${new Date(base).toISOString()}`, undefined, own);
      expectStatus(disabledReplay, 409);
      // Enabled with the worker's claims locked out for the moment: the replay's figures are what is checked here.
      await t.prisma.$executeRawUnsafe(`UPDATE webhook_endpoints SET enabled = true WHERE id = '${webhook.id}'`);
      await t.prisma.$executeRawUnsafe(
        `UPDATE webhook_deliveries SET lease_token = gen_random_uuid(), lease_expires_at = now() + interval '1 hour' ` +
          `WHERE endpoint_id = '${webhook.id}'`,
      );
      const replayed = (await api('POST', `/api/v1/webhooks/${webhook.id}/replay?from=${new Date(base).toISOString()}`, undefined, own)).json();
      expect(replayed.queued).toBe(1000);
      expect(replayed.next_from).toBe(new Date(base + 1000 * S).toISOString());
      await api('DELETE', `/api/v1/webhooks/${webhook.id}`, undefined, own);
    });
  });

  describe('instances and safety', () => {
    // Two instances share a PostgreSQL server; the embedded database belongs to one process.
    itWhen(HAS_POSTGRES)(
      'never delivers one attempt twice with two instances delivering, and keeps each endpoint to 10 requests at once',
      async () => {
        const { key: own } = await t.newAccount();
        const sibling = await t.startSibling();
        const hook = await receiver();
        hook.delayMs = 30;
        const webhook = await createWebhook({ url: hook.url(), events: ['qrcode.created'] }, own);
        for (let i = 0; i < 4; i++) {
          const res = await sibling.request({
            method: 'POST',
            url: '/api/v1/qrcodes/bulk',
            headers: auth(own),
            payload: { qrcodes: Array.from({ length: 50 }, () => ({ type: 'text', content: { text: 'hi' } })) },
          });
          expectStatus(res, 201);
        }
        expect(await eventually(async () => hook.received.length, 200, 20_000)).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 500));
        const ids = hook.received.map((received) => String(received.headers['webhook-id']));
        expect(new Set(ids).size).toBe(200);
        expect(ids).toHaveLength(200);
        const attempts = await t.prisma.webhookAttempt.groupBy({ by: ['deliveryId'], where: { delivery: { endpointId: webhook.id } }, _count: true });
        expect(attempts).toHaveLength(200);
        expect(attempts.every((row) => row._count === 1)).toBe(true);
        expect(hook.maxConcurrent).toBeLessThanOrEqual(10);
        expect(hook.maxConcurrent).toBeGreaterThan(1);
        // Each body exactly as the outbox holds it, whether the instance that wrote the event posted it (from memory) or the other one (read back).
        const stored = new Map(
          (await t.prisma.webhookEvent.findMany({ where: { id: { in: ids } }, select: { id: true, body: true } })).map((event) => [
            event.id,
            event.body,
          ]),
        );
        expect(hook.received.every((received) => received.body === stored.get(String(received.headers['webhook-id'])))).toBe(true);
        expect(new Set(hook.received.map((received) => JSON.parse(received.body).data.qrcode.id)).size).toBe(200);
      },
    );

    it('refuses at delivery a host resolving to 127.0.0.1 without WEBHOOK_ALLOW_PRIVATE, and logs why; an IP literal at create', async () => {
      const strict = await startTestApp({ ...GENEROUS_RATE_LIMIT, WEBHOOK_ALLOW_HTTP: '1' });
      try {
        const { key: own } = await strict.newAccount();
        const hook = await receiver();
        const literal = await strict.request({
          method: 'POST',
          url: '/api/v1/webhooks',
          headers: auth(own),
          payload: { url: hook.url(), events: ['*'] },
        });
        expectStatus(literal, 400);
        expect(literal.json().errors).toEqual([{ field: 'url', message: 'url must point to a public address: 127.0.0.1 is a loopback address' }]);
        const created = await strict.request({
          method: 'POST',
          url: '/api/v1/webhooks',
          headers: auth(own),
          payload: { url: hook.url('/hook', 'localhost'), events: ['*'] },
        });
        expectStatus(created, 201);
        const webhook = created.json();
        expectStatus(await strict.request({ method: 'POST', url: `/api/v1/webhooks/${webhook.id}/test`, headers: auth(own) }), 202);
        const deliveries = async () =>
          (await strict.request({ method: 'GET', url: `/api/v1/webhooks/${webhook.id}/deliveries?status=failed`, headers: auth(own) })).json<Json>();
        expect(await eventually(async () => (await deliveries()).pagination.total, 1)).toBe(1);
        const [failed] = (await deliveries()).data as Json[];
        expect(failed.last_error).toMatch(
          /^refused: localhost resolves to (127\.0\.0\.1|::1) is a loopback address; webhooks are sent only to public addresses/,
        );
        const detail = (
          await strict.request({ method: 'GET', url: `/api/v1/webhooks/${webhook.id}/deliveries/${failed.id}`, headers: auth(own) })
        ).json();
        expect(detail.attempts).toEqual([expect.objectContaining({ status_code: null, outcome: 'failed', error: failed.last_error })]);
        expect(hook.received).toHaveLength(0);
      } finally {
        await strict.close();
      }
    });

    it('stops delivering within a few seconds at shutdown, even with an attempt hanging, and logs the aborted attempt', async () => {
      const other = await startTestApp({ ...GENEROUS_RATE_LIMIT, WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE: '1', SHUTDOWN_GRACE_MS: '2000' });
      const inspect = other.app.get(Database).inspectionClient();
      let closed = false;
      try {
        const { key: own } = await other.newAccount();
        const hook = await receiver();
        hook.delayMs = 60_000;
        const created = await other.request({
          method: 'POST',
          url: '/api/v1/webhooks',
          headers: auth(own),
          payload: { url: hook.url(), events: ['*'] },
        });
        expectStatus(await other.request({ method: 'POST', url: `/api/v1/webhooks/${created.json<Json>().id}/test`, headers: auth(own) }), 202);
        expect(await eventually(async () => hook.received.length, 1)).toBe(1);
        const started = Date.now();
        await other.app.get(JobRunner).beforeApplicationShutdown();
        expect(Date.now() - started).toBeLessThan(6000);
        const [attempt] = await inspect.webhookAttempt.findMany({
          where: { accountId: (await inspect.apiKey.findFirstOrThrow({ where: { name: 'test key' }, orderBy: { createdAt: 'desc' } })).accountId },
        });
        expect(attempt).toMatchObject({ statusCode: null, outcome: 'retrying', error: 'aborted: the instance is shutting down' });
        await other.close();
        closed = true;
      } finally {
        await inspect.$disconnect();
        if (!closed) await other.close();
      }
    });
  });
});
