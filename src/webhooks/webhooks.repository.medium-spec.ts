import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { DeliveryId, WebhookId } from '../common/ids/resource-ids';
import { useMediumDatabase } from '../../test/support/medium';
import { RowFactory } from '../../test/support/row-factories';
import { type WebhookChanges, WebhooksRepository } from './webhooks.repository';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

const fields = (overrides: Partial<Required<WebhookChanges>> = {}): Required<WebhookChanges> & { sealedSecret: string } => ({
  url: 'https://hooks.example.com/in',
  description: 'orders',
  events: ['qrcode.created'],
  folderId: null,
  qrcodeIds: [],
  enabled: true,
  sealedSecret: 'sealed-1',
  ...overrides,
});

describe('WebhooksRepository (medium)', () => {
  const db = useMediumDatabase();
  let webhooks: WebhooksRepository;
  let rows: RowFactory;
  let owner: AccountId;
  let stranger: AccountId;

  beforeAll(() => {
    webhooks = new WebhooksRepository(db.database);
    rows = new RowFactory(db.tables);
  });

  beforeEach(async () => {
    owner = await rows.account();
    stranger = await rows.account();
  });

  const storedEndpoint = (id: WebhookId) => db.tables.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
  const storedDelivery = (id: DeliveryId) => db.tables.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  describe('endpoints', () => {
    it('inserts an endpoint of the account with its secret sealed as given', async () => {
      const id = randomUUID() as WebhookId;
      const created = await webhooks.insert(db.database.write, owner, id, fields({ events: ['*'] }), at(0));
      expect(created).toMatchObject({
        id,
        url: 'https://hooks.example.com/in',
        events: ['*'],
        enabled: true,
        disabledReason: null,
        createdAt: at(0),
      });
      expect(await storedEndpoint(id)).toMatchObject({ account_id: owner, secret_ciphertext: 'sealed-1', previous_secret_ciphertext: null });
    });

    it('refuses a URL longer than the column (2048), storing nothing', async () => {
      await expect(
        webhooks.insert(db.database.write, owner, randomUUID() as WebhookId, fields({ url: `https://h.example/${'x'.repeat(2048)}` }), at(0)),
      ).rejects.toThrow();
      expect(await webhooks.count(owner)).toBe(0);
    });

    it('lists and counts only the account’s endpoints, newest first', async () => {
      const older = await rows.webhook(owner, { created_at: at(1) });
      const newer = await rows.webhook(owner, { created_at: at(2) });
      await rows.webhook(stranger);
      expect((await webhooks.list(owner)).map((endpoint) => endpoint.id)).toEqual([newer.id, older.id]);
      expect(await webhooks.count(owner)).toBe(2);
      expect(await webhooks.count(stranger)).toBe(1);
    });

    it('finds, updates, rotates and deletes only the account’s endpoint', async () => {
      const endpoint = await rows.webhook(owner, { url: 'https://hooks.example.com/kept' });
      expect(await webhooks.find(stranger, endpoint.id)).toBeUndefined();
      expect(await webhooks.update(db.database.write, stranger, endpoint.id, { url: 'https://evil.example/' }, at(5))).toBeUndefined();
      expect(await webhooks.rotateSecret(db.database.write, stranger, endpoint.id, 'sealed-evil', at(5), at(10))).toBeUndefined();
      expect(await webhooks.delete(db.database.write, stranger, endpoint.id)).toBeUndefined();
      expect(await storedEndpoint(endpoint.id)).toMatchObject({ url: 'https://hooks.example.com/kept', secret_ciphertext: 'sealed-secret' });
      expect((await webhooks.find(owner, endpoint.id))?.url).toBe('https://hooks.example.com/kept');
    });

    it('updates the fields given and leaves the others', async () => {
      const endpoint = await rows.webhook(owner, { description: 'kept', events: ['qrcode.created'] });
      const updated = await webhooks.update(db.database.write, owner, endpoint.id, { events: ['qrcode.deleted'], qrcodeIds: [randomUUID()] }, at(7));
      expect(updated).toMatchObject({ description: 'kept', events: ['qrcode.deleted'], updatedAt: at(7) });
      expect(updated!.qrcodeIds).toHaveLength(1);
    });

    it('disabling records why; enabling clears the reason and the failure streak', async () => {
      const endpoint = await rows.webhook(owner, { enabled: false, disabled_reason: 'Disabled at …: every delivery failed', failing_since: at(0) });
      const enabled = await webhooks.update(db.database.write, owner, endpoint.id, { enabled: true }, at(1));
      expect(enabled).toMatchObject({ enabled: true, disabledReason: null });
      expect((await storedEndpoint(endpoint.id))?.failing_since).toBeNull();
      const disabled = await webhooks.update(db.database.write, owner, endpoint.id, { enabled: false }, at(2));
      expect(disabled).toMatchObject({ enabled: false, disabledReason: 'Disabled by the account' });
    });

    it('rotating keeps the old secret as the previous one until the given time', async () => {
      const endpoint = await rows.webhook(owner, { secret_ciphertext: 'sealed-old' });
      const rotated = await webhooks.rotateSecret(db.database.write, owner, endpoint.id, 'sealed-new', at(0), at(60));
      expect(rotated?.previousSecretExpiresAt).toEqual(at(60));
      expect(await storedEndpoint(endpoint.id)).toMatchObject({ secret_ciphertext: 'sealed-new', previous_secret_ciphertext: 'sealed-old' });
    });

    it('deleting an endpoint takes its deliveries and their attempts with it, not the events', async () => {
      const endpoint = await rows.webhook(owner);
      const event = await rows.webhookEvent(owner);
      const delivery = await rows.delivery(endpoint, event);
      await db.tables
        .insertInto('webhook_attempts')
        .values({ id: randomUUID(), account_id: owner, delivery_id: delivery.id, attempted_at: at(0), duration_ms: 5, outcome: 'failed' })
        .execute();
      expect(await webhooks.delete(db.database.write, owner, endpoint.id)).toMatchObject({ id: endpoint.id });
      expect(await db.tables.selectFrom('webhook_deliveries').select('id').where('id', '=', delivery.id).execute()).toEqual([]);
      expect(await db.tables.selectFrom('webhook_attempts').select('id').where('delivery_id', '=', delivery.id).execute()).toEqual([]);
      expect(await db.tables.selectFrom('webhook_events').select('id').where('id', '=', event.id).execute()).toHaveLength(1);
    });

    it('creates the stored secrets key once and returns the same one after', async () => {
      const [first, second] = await Promise.all([webhooks.storedSecretsKey(), webhooks.storedSecretsKey()]);
      expect(first).toMatch(/^[0-9a-f]{64}$/);
      expect(second).toBe(first);
      expect(await webhooks.storedSecretsKey()).toBe(first);
    });
  });

  describe('delivery log', () => {
    it('pages the endpoint’s deliveries newest first, filtered by status and event type, with the total', async () => {
      const endpoint = await rows.webhook(owner);
      const other = await rows.webhook(owner);
      const event = await rows.webhookEvent(owner);
      const scanned = await rows.webhookEvent(owner, { type: 'qrcode.scanned' });
      const made = [];
      for (let i = 0; i < 5; i++)
        made.push(await rows.delivery(endpoint, i === 4 ? scanned : event, { created_at: at(i), status: i % 2 ? 'failed' : 'succeeded' }));
      await rows.delivery(other, event);
      const first = await webhooks.deliveryPage(owner, endpoint.id, {}, 1, 2);
      expect(first.total).toBe(5);
      expect(first.items.map((d) => d.id)).toEqual([made[4].id, made[3].id]);
      expect((await webhooks.deliveryPage(owner, endpoint.id, {}, 3, 2)).items.map((d) => d.id)).toEqual([made[0].id]);
      const failed = await webhooks.deliveryPage(owner, endpoint.id, { status: 'failed' }, 1, 10);
      expect({ total: failed.total, ids: failed.items.map((d) => d.id) }).toEqual({ total: 2, ids: [made[3].id, made[1].id] });
      const scans = await webhooks.deliveryPage(owner, endpoint.id, { eventType: 'qrcode.scanned' }, 1, 10);
      expect(scans.items.map((d) => d.id)).toEqual([made[4].id]);
    });

    it('shows another account nothing of the endpoint’s log', async () => {
      const endpoint = await rows.webhook(owner);
      const delivery = await rows.delivery(endpoint, await rows.webhookEvent(owner));
      expect(await webhooks.deliveryPage(stranger, endpoint.id, {}, 1, 10)).toEqual({ items: [], total: 0 });
      expect(await webhooks.delivery(stranger, endpoint.id, delivery.id)).toBeUndefined();
    });

    it('reads a delivery with its event body and attempts in order, only under its own endpoint', async () => {
      const endpoint = await rows.webhook(owner);
      const other = await rows.webhook(owner);
      const event = await rows.webhookEvent(owner, { body: '{"hello":"world"}' });
      const delivery = await rows.delivery(endpoint, event);
      for (const [minute, outcome] of [
        [2, 'succeeded'],
        [1, 'retrying'],
      ] as const) {
        await db.tables
          .insertInto('webhook_attempts')
          .values({ id: randomUUID(), account_id: owner, delivery_id: delivery.id, attempted_at: at(minute), duration_ms: 3, outcome })
          .execute();
      }
      const read = await webhooks.delivery(owner, endpoint.id, delivery.id);
      expect(read?.body).toBe('{"hello":"world"}');
      expect(read?.attempts.map((a) => a.outcome)).toEqual(['retrying', 'succeeded']);
      expect(await webhooks.delivery(owner, other.id, delivery.id)).toBeUndefined();
    });

    it('redelivers now with a fresh schedule and no lease, for the owner only', async () => {
      const endpoint = await rows.webhook(owner);
      const delivery = await rows.delivery(endpoint, await rows.webhookEvent(owner), {
        status: 'failed',
        schedule_attempts: 8,
        next_attempt_at: null,
        lease_token: randomUUID(),
        lease_expires_at: at(30),
      });
      expect(await webhooks.redeliver(db.database.write, stranger, endpoint.id, delivery.id, at(0))).toBeUndefined();
      expect((await storedDelivery(delivery.id)).status).toBe('failed');
      const queued = await webhooks.redeliver(db.database.write, owner, endpoint.id, delivery.id, at(0));
      expect(queued).toMatchObject({ status: 'pending', schedule_attempts: 0, next_attempt_at: at(0), lease_token: null, lease_expires_at: null });
    });

    it('replays finished deliveries of [from, to), oldest first, up to the cap, and says where to continue', async () => {
      const endpoint = await rows.webhook(owner);
      const event = await rows.webhookEvent(owner);
      const before = await rows.delivery(endpoint, event, { created_at: at(-1), status: 'succeeded' });
      const inside = [];
      for (let i = 0; i < 3; i++) inside.push(await rows.delivery(endpoint, event, { created_at: at(i), status: i === 1 ? 'failed' : 'succeeded' }));
      const pending = await rows.delivery(endpoint, event, { created_at: at(1), status: 'pending', next_attempt_at: at(50) });
      const atEnd = await rows.delivery(endpoint, event, { created_at: at(10), status: 'succeeded' });

      const firstRun = await webhooks.replay(db.database.write, owner, endpoint.id, at(0), at(10), at(20), 2);
      expect(firstRun).toEqual({ queued: 2, nextFrom: at(2) });
      expect((await storedDelivery(inside[0].id)).status).toBe('pending');
      expect((await storedDelivery(inside[1].id)).next_attempt_at).toEqual(at(20));
      expect((await storedDelivery(inside[2].id)).status).toBe('succeeded');

      expect(await webhooks.replay(db.database.write, owner, endpoint.id, at(2), at(10), at(20), 2)).toEqual({ queued: 1, nextFrom: null });
      expect((await storedDelivery(before.id)).status).toBe('succeeded');
      expect((await storedDelivery(atEnd.id)).status).toBe('succeeded');
      expect((await storedDelivery(pending.id)).next_attempt_at).toEqual(at(50));
    });

    it('replays nothing of another account’s endpoint', async () => {
      const endpoint = await rows.webhook(owner);
      const delivery = await rows.delivery(endpoint, await rows.webhookEvent(owner), { created_at: at(0), status: 'failed' });
      expect(await webhooks.replay(db.database.write, stranger, endpoint.id, at(-10), at(10), at(20), 100)).toEqual({ queued: 0, nextFrom: null });
      expect((await storedDelivery(delivery.id)).status).toBe('failed');
    });
  });
});
