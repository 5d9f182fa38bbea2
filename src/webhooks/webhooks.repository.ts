import { Injectable } from '@nestjs/common';
import type { Selectable } from 'kysely';
import { randomBytes } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { DeliveryId, FolderId, WebhookId } from '../common/ids/resource-ids';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../generated/kysely/database';
import { Database } from '../infra/database/database.service';
import type { Tables } from '../infra/database/tables';

const SECRETS_KEY_SETTING = 'webhook_secrets_key';

export interface WebhookRecord {
  id: WebhookId;
  url: string;
  description: string;
  events: string[];
  folderId: FolderId | null;
  qrcodeIds: string[];
  enabled: boolean;
  disabledReason: string | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookChanges {
  url?: string;
  description?: string;
  events?: string[];
  folderId?: FolderId | null;
  qrcodeIds?: string[];
  enabled?: boolean;
}

export type DeliveryRecord = Selectable<WebhookDelivery>;
export type AttemptRow = Selectable<WebhookAttempt>;

export interface DeliveryFilter {
  status?: string;
  eventType?: string;
}

const toRecord = (row: Selectable<WebhookEndpoint>): WebhookRecord => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events ?? [],
  folderId: row.folder_id,
  qrcodeIds: row.qrcode_ids ?? [],
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  previousSecretExpiresAt: row.previous_secret_expires_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** An account's webhook endpoints and their delivery log; every query names the account. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly database: Database) {}

  async count(accountId: AccountId): Promise<number> {
    const row = await this.database.read
      .forAccount(accountId)
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(
    tx: Tables,
    accountId: AccountId,
    id: WebhookId,
    fields: Required<WebhookChanges> & { sealedSecret: string },
    now: Date,
  ): Promise<WebhookRecord> {
    const row = await tx
      .forAccount(accountId)
      .insertInto('webhook_endpoints', [
        {
          id,
          url: fields.url,
          description: fields.description,
          events: fields.events,
          folder_id: fields.folderId,
          qrcode_ids: fields.qrcodeIds,
          enabled: fields.enabled,
          secret_ciphertext: fields.sealedSecret,
          created_at: now,
          updated_at: now,
        },
      ])
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async list(accountId: AccountId): Promise<WebhookRecord[]> {
    const rows = await this.database.read
      .forAccount(accountId)
      .selectFrom('webhook_endpoints')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toRecord);
  }

  async find(accountId: AccountId, id: WebhookId): Promise<WebhookRecord | undefined> {
    const row = await this.database.read.forAccount(accountId).selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  /** The endpoint as it is now, locked until the transaction ends (a change records what it changed from). */
  async lockForUpdate(tx: Tables, accountId: AccountId, id: WebhookId): Promise<WebhookRecord | undefined> {
    const row = await tx.forAccount(accountId).selectFrom('webhook_endpoints').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    return row && toRecord(row);
  }

  /** Applies changes; enabling an endpoint clears why it was disabled and its failure streak. */
  async update(tx: Tables, accountId: AccountId, id: WebhookId, changes: WebhookChanges, now: Date): Promise<WebhookRecord | undefined> {
    const row = await tx
      .forAccount(accountId)
      .updateTable('webhook_endpoints')
      .set({
        updated_at: now,
        ...(changes.url !== undefined && { url: changes.url }),
        ...(changes.description !== undefined && { description: changes.description }),
        ...(changes.events !== undefined && { events: changes.events }),
        ...(changes.folderId !== undefined && { folder_id: changes.folderId }),
        ...(changes.qrcodeIds !== undefined && { qrcode_ids: changes.qrcodeIds }),
        ...(changes.enabled === true && { enabled: true, disabled_reason: null, failing_since: null }),
        ...(changes.enabled === false && { enabled: false, disabled_reason: 'Disabled by the account' }),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** Deletes the endpoint and its deliveries (cascade); returns it as it was. */
  async delete(tx: Tables, accountId: AccountId, id: WebhookId): Promise<WebhookRecord | undefined> {
    const row = await tx.forAccount(accountId).deleteFrom('webhook_endpoints').where('id', '=', id).returningAll().executeTakeFirst();
    return row && toRecord(row);
  }

  /** The current secret becomes the previous one (signing until `previousUntil`), `sealedSecret` the current one. */
  async rotateSecret(
    tx: Tables,
    accountId: AccountId,
    id: WebhookId,
    sealedSecret: string,
    now: Date,
    previousUntil: Date,
  ): Promise<WebhookRecord | undefined> {
    const row = await tx
      .forAccount(accountId)
      .updateTable('webhook_endpoints')
      .set((eb) => ({
        previous_secret_ciphertext: eb.ref('secret_ciphertext'),
        previous_secret_expires_at: previousUntil,
        secret_ciphertext: sealedSecret,
        updated_at: now,
      }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async deliveryPage(
    accountId: AccountId,
    endpointId: WebhookId,
    filter: DeliveryFilter,
    page: number,
    limit: number,
  ): Promise<{ items: DeliveryRecord[]; total: number }> {
    const owned = this.database.read.forAccount(accountId);
    let query = owned.selectFrom('webhook_deliveries').where('endpoint_id', '=', endpointId);
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.eventType) query = query.where('event_type', '=', filter.eventType);
    const [items, total] = await Promise.all([
      query
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<bigint>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  }

  async delivery(
    accountId: AccountId,
    endpointId: WebhookId,
    id: DeliveryId,
  ): Promise<{ delivery: DeliveryRecord; body: string; attempts: AttemptRow[] } | undefined> {
    const owned = this.database.read.forAccount(accountId);
    const delivery = await owned
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirst();
    if (!delivery) return undefined;
    const [event, attempts] = await Promise.all([
      owned.selectFrom('webhook_events').select('body').where('id', '=', delivery.event_id).executeTakeFirstOrThrow(),
      owned.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', id).orderBy('attempted_at').orderBy('id').execute(),
    ]);
    return { delivery, body: event.body, attempts };
  }

  /** Queues the delivery again now, with a fresh retry schedule (an attempt in flight no longer decides its state). */
  async redeliver(tx: Tables, accountId: AccountId, endpointId: WebhookId, id: DeliveryId, now: Date): Promise<DeliveryRecord | undefined> {
    return tx
      .forAccount(accountId)
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', schedule_attempts: 0, next_attempt_at: now, lease_token: null, lease_expires_at: null })
      .where('id', '=', id)
      .where('endpoint_id', '=', endpointId)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Queues again, now, the endpoint's finished deliveries (succeeded or failed) of events in
   * [from, to), oldest first, at most `cap`; returns how many, and the time to continue from
   * when more remain.
   */
  async replay(
    tx: Tables,
    accountId: AccountId,
    endpointId: WebhookId,
    from: Date,
    to: Date,
    now: Date,
    cap: number,
  ): Promise<{ queued: number; nextFrom: Date | null }> {
    const owned = tx.forAccount(accountId);
    const rows = await owned
      .selectFrom('webhook_deliveries')
      .select(['id', 'created_at'])
      .where('endpoint_id', '=', endpointId)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .where('status', '!=', 'pending')
      .orderBy('created_at')
      .orderBy('id')
      .limit(cap + 1)
      .execute();
    const chosen = rows.slice(0, cap);
    if (chosen.length > 0) {
      await owned
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', schedule_attempts: 0, next_attempt_at: now, lease_token: null, lease_expires_at: null })
        .where(
          'id',
          'in',
          chosen.map((row) => row.id),
        )
        .execute();
    }
    return { queued: chosen.length, nextFrom: rows.length > cap ? rows[cap].created_at : null };
  }

  /** The random value the signing secrets' key is derived from when WEBHOOK_SECRETS_KEY is unset, created by the first instance that needs it. */
  async storedSecretsKey(): Promise<string> {
    const settings = this.database.write.shared;
    await settings
      .insertInto('service_settings')
      .values({ name: SECRETS_KEY_SETTING, value: randomBytes(32).toString('hex') })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
    const row = await settings.selectFrom('service_settings').select('value').where('name', '=', SECRETS_KEY_SETTING).executeTakeFirstOrThrow();
    return row.value;
  }
}
