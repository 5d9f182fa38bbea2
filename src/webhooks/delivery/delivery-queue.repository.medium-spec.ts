import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { AccountId } from '../../common/ids/account-id';
import type { DeliveryId, WebhookId } from '../../common/ids/resource-ids';
import type { WebhookDelivery } from '../../generated/kysely/database';
import { useMediumDatabase } from '../../../test/support/medium';
import { RowFactory } from '../../../test/support/row-factories';
import { type AttemptRecord, type ClaimOptions, DELIVERY_QUEUE, DeliveryQueueRepository, EVENT_RETENTION_MS } from './delivery-queue.repository';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const NOW = at(0);
const HOUR_MS = 3_600_000;

const claimOptions = (overrides: Partial<ClaimOptions> = {}): ClaimOptions => ({
  limit: DELIVERY_QUEUE.batch,
  knownBody: () => undefined,
  ...overrides,
});

describe('DeliveryQueueRepository (medium)', () => {
  const db = useMediumDatabase();
  let queue: DeliveryQueueRepository;
  let rows: RowFactory;
  let account: AccountId;

  beforeAll(() => {
    queue = new DeliveryQueueRepository(db.database);
    rows = new RowFactory(db.tables);
  });

  beforeEach(async () => {
    // The queue serves every account: each test starts from an empty outbox (the events cascade to their deliveries).
    await db.tables.deleteFrom('webhook_events').execute();
    account = await rows.account();
  });

  const claim = async (options: Partial<ClaimOptions> = {}, now = NOW) => {
    const { token, deliveries } = await queue.cycle([], now, claimOptions(options), HOUR_MS);
    return { token: token!, deliveries };
  };
  const storedDelivery = (id: DeliveryId) => db.tables.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const storedEndpoint = (id: WebhookId) => db.tables.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const due = async (endpointOverrides = {}, deliveryOverrides: Partial<Selectable<WebhookDelivery>> = {}) => {
    const endpoint = await rows.webhook(account, endpointOverrides);
    const event = await rows.webhookEvent(account, { body: '{"stored":true}' });
    const delivery = await rows.delivery(endpoint, event, { next_attempt_at: at(-1), ...deliveryOverrides });
    return { endpoint, event, delivery };
  };
  const attempt = (delivery: Selectable<WebhookDelivery>, leaseToken: string, overrides: Partial<AttemptRecord> = {}): AttemptRecord => ({
    leaseToken,
    deliveryId: delivery.id,
    accountId: delivery.account_id,
    endpointId: delivery.endpoint_id,
    attemptedAt: NOW,
    statusCode: 200,
    error: null,
    durationMs: 12,
    snippet: 'ok',
    outcome: 'succeeded',
    nextAttemptAt: null,
    scheduleAttempts: 1,
    ...overrides,
  });

  describe('claim', () => {
    it('leases a due delivery and hands over what it takes to send it', async () => {
      const { endpoint, event, delivery } = await due({ url: 'https://hooks.example.com/a', secret_ciphertext: 'sealed-a' });
      const { token, deliveries } = await claim();
      expect(deliveries).toEqual([
        expect.objectContaining({ id: delivery.id, accountId: account, endpointId: endpoint.id, eventId: event.id, body: '{"stored":true}' }),
      ]);
      expect(deliveries[0]).toMatchObject({ url: 'https://hooks.example.com/a', secretCiphertext: 'sealed-a', scheduleAttempts: 0 });
      // Leased for the queue's 60 s.
      expect(await storedDelivery(delivery.id)).toMatchObject({ lease_token: token, lease_expires_at: at(1), status: 'pending' });
    });

    it('uses a body the instance still holds instead of reading the event', async () => {
      const { event } = await due();
      const { deliveries } = await claim({ knownBody: (id) => (id === event.id ? '{"held":true}' : undefined) });
      expect(deliveries.map((d) => d.body)).toEqual(['{"held":true}']);
    });

    it('leaves deliveries not yet due, finished, or leased; takes one whose lease ran out', async () => {
      await due({}, { next_attempt_at: at(1) });
      await due({}, { status: 'succeeded' });
      await due({}, { lease_token: randomUUID(), lease_expires_at: at(1) });
      const { delivery: expired } = await due({}, { lease_token: randomUUID(), lease_expires_at: at(-1) });
      expect((await claim()).deliveries.map((d) => d.id)).toEqual([expired.id]);
    });

    it('leases at most 10 per endpoint over all claims, earliest due first, counting attempts already in flight', async () => {
      const endpoint = await rows.webhook(account);
      const event = await rows.webhookEvent(account);
      const made = [];
      for (let minute = -12; minute < 0; minute++) made.push(await rows.delivery(endpoint, event, { next_attempt_at: at(minute) }));
      const quiet = await due();
      const first = await claim({ limit: 2 });
      expect(first.deliveries.map((d) => d.id).sort()).toEqual([made[0].id, made[1].id].sort());
      // The busy endpoint has 8 slots left; the other endpoint is served beside it.
      const second = (await claim()).deliveries.map((d) => d.id);
      expect(second).toHaveLength(9);
      expect(second).toEqual(expect.arrayContaining([quiet.delivery.id, ...made.slice(2, 10).map((d) => d.id)]));
      expect((await claim()).deliveries).toEqual([]);
    });

    it('serves every account, and a disabled endpoint only its test deliveries', async () => {
      const other = await rows.account();
      const mine = await rows.webhook(account);
      const theirs = await rows.webhook(other, { enabled: false });
      const ownEvent = await rows.webhookEvent(account);
      const testEvent = await rows.webhookEvent(other, { type: 'webhook.test' });
      const realEvent = await rows.webhookEvent(other);
      const ownDelivery = await rows.delivery(mine, ownEvent, { next_attempt_at: at(-1) });
      const testDelivery = await rows.delivery(theirs, testEvent, { next_attempt_at: at(-1) });
      await rows.delivery(theirs, realEvent, { next_attempt_at: at(-1) });
      const claimed = (await claim()).deliveries.map((d) => d.id).sort();
      expect(claimed).toEqual([ownDelivery.id, testDelivery.id].sort());
    });
  });

  describe('record', () => {
    it('records a success: the attempt, the delivery finished and unleased, the endpoint’s streak cleared', async () => {
      const { endpoint, delivery } = await due({ failing_since: at(-30) });
      const { token } = await claim();
      const result = await queue.cycle([attempt(delivery, token)], NOW, null, HOUR_MS);
      expect(result).toMatchObject({ disabled: [], deliveries: [] });
      expect(await storedDelivery(delivery.id)).toMatchObject({
        status: 'succeeded',
        attempt_count: 1,
        schedule_attempts: 1,
        lease_token: null,
        last_status_code: 200,
        last_attempt_at: NOW,
      });
      const attempts = await db.tables.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', delivery.id).execute();
      expect(attempts).toEqual([expect.objectContaining({ account_id: account, outcome: 'succeeded', status_code: 200, response_snippet: 'ok' })]);
      expect((await storedEndpoint(endpoint.id)).failing_since).toBeNull();
    });

    it('puts a retrying delivery back in the queue at its next time, and starts the endpoint’s failure streak', async () => {
      const { endpoint, delivery } = await due();
      const { token } = await claim();
      await queue.cycle([attempt(delivery, token, { outcome: 'retrying', statusCode: 503, nextAttemptAt: at(2) })], NOW, null, HOUR_MS);
      expect(await storedDelivery(delivery.id)).toMatchObject({
        status: 'pending',
        next_attempt_at: at(2),
        lease_token: null,
        last_status_code: 503,
      });
      expect((await storedEndpoint(endpoint.id)).failing_since).toEqual(NOW);
      expect((await claim({}, at(1))).deliveries).toEqual([]);
      expect((await claim({}, at(2))).deliveries.map((d) => d.id)).toEqual([delivery.id]);
    });

    it('leaves the state of a delivery redelivered meanwhile (its lease is not this claim’s) but keeps the attempt', async () => {
      const { delivery } = await due();
      await claim();
      await queue.cycle([attempt(delivery, randomUUID(), { outcome: 'failed', statusCode: 500 })], NOW, null, HOUR_MS);
      expect((await storedDelivery(delivery.id)).status).toBe('pending');
      expect(await db.tables.selectFrom('webhook_attempts').select('outcome').where('delivery_id', '=', delivery.id).execute()).toEqual([
        { outcome: 'failed' },
      ]);
    });

    it('disables an endpoint whose every delivery failed for disableAfterMs, saying why, and only then', async () => {
      const { endpoint, delivery } = await due({ failing_since: at(-59) });
      const { token } = await claim();
      const early = await queue.cycle([attempt(delivery, token, { outcome: 'retrying', statusCode: 500, nextAttemptAt: at(1) })], NOW, null, HOUR_MS);
      expect(early.disabled).toEqual([]);
      expect((await storedEndpoint(endpoint.id)).enabled).toBe(true);

      const later = at(1);
      const { token: again } = await claim({}, later);
      const result = await queue.cycle([attempt(delivery, again, { outcome: 'failed', statusCode: 500, attemptedAt: later })], later, null, HOUR_MS);
      expect(result.disabled).toEqual([endpoint.id]);
      const disabled = await storedEndpoint(endpoint.id);
      expect(disabled.enabled).toBe(false);
      expect(disabled.disabled_reason).toMatch(/every delivery failed since .*\(last: HTTP 500\)/);
    });
  });

  it('sweeps events past their retention, of every account, with their deliveries', async () => {
    const other = await rows.account();
    const old = await due({}, {});
    await db.tables
      .updateTable('webhook_events')
      .set({ occurred_at: at(-100) })
      .where('id', '=', old.event.id)
      .execute();
    await rows.webhookEvent(other, { occurred_at: at(-90) });
    const recent = await rows.webhookEvent(account, { occurred_at: at(-10) });
    // The queue's sweep (a periodic task of the runner) keeps events EVENT_RETENTION_MS.
    expect(await queue.leased.sweep(new Date(at(-50).getTime() + EVENT_RETENTION_MS))).toBe(2);
    const left = await db.tables.selectFrom('webhook_events').select('id').execute();
    expect(left.map((row) => row.id)).toEqual([recent.id]);
    expect(await db.tables.selectFrom('webhook_deliveries').select('id').where('id', '=', old.delivery.id).execute()).toEqual([]);
  });
});
