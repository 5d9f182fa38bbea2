import type { Insertable, Kysely, Selectable } from 'kysely';
import { randomUUID } from 'node:crypto';
import { type AccountId, asAccountId } from '../../src/common/ids/account-id';
import type { DeliveryId, FolderId, QrCodeId, WebhookEventId, WebhookId } from '../../src/common/ids/resource-ids';
import type { AuditLogEntry, DB, Folder, QrCode, WebhookDelivery, WebhookEndpoint, WebhookEvent } from '../../src/generated/kysely/database';

/**
 * Rows for the medium tier, inserted straight into the tables (not through the repository under
 * test). Each factory fills every required column with a valid default; `overrides` replace
 * columns (snake_case, as in the table). Names and URLs carry a counter, so rows made in a row differ.
 */
type Overrides<T> = Partial<Insertable<T>>;

export class RowFactory {
  private serial = 0;

  constructor(private readonly db: Kysely<DB>) {}

  async account(): Promise<AccountId> {
    const id = asAccountId(randomUUID());
    await this.db.insertInto('accounts').values({ id }).execute();
    return id;
  }

  async folder(accountId: AccountId, overrides: Overrides<Folder> = {}): Promise<Selectable<Folder>> {
    return this.db
      .insertInto('folders')
      .values({ id: randomUUID() as FolderId, account_id: accountId, name: `Folder ${++this.serial}`, updated_at: new Date(), ...overrides })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** A static url code (JSON columns as objects; they are serialised here). */
  async code(
    accountId: AccountId,
    overrides: Omit<Overrides<QrCode>, 'content' | 'style'> & { content?: Record<string, unknown>; style?: Record<string, unknown> } = {},
  ): Promise<Selectable<QrCode>> {
    const n = ++this.serial;
    const { content = { url: `https://example.com/${n}` }, style = {}, ...columns } = overrides;
    return this.db
      .insertInto('qr_codes')
      .values({
        id: randomUUID() as QrCodeId,
        account_id: accountId,
        name: `Code ${n}`,
        type: 'url',
        content: JSON.stringify(content),
        content_string: typeof content.url === 'string' ? content.url : JSON.stringify(content),
        style: JSON.stringify(style),
        updated_at: new Date(),
        ...columns,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** A dynamic code with a short code of its own. */
  async dynamicCode(accountId: AccountId, overrides: Parameters<RowFactory['code']>[1] = {}): Promise<Selectable<QrCode>> {
    return this.code(accountId, { is_dynamic: true, short_code: `m${randomUUID().replace(/-/g, '').slice(0, 10)}`, ...overrides });
  }

  async webhook(accountId: AccountId, overrides: Overrides<WebhookEndpoint> = {}): Promise<Selectable<WebhookEndpoint>> {
    const now = new Date();
    return this.db
      .insertInto('webhook_endpoints')
      .values({
        id: randomUUID() as WebhookId,
        account_id: accountId,
        url: `https://hooks.example.com/${++this.serial}`,
        events: ['*'],
        secret_ciphertext: 'sealed-secret',
        created_at: now,
        updated_at: now,
        ...overrides,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async webhookEvent(accountId: AccountId, overrides: Overrides<WebhookEvent> = {}): Promise<Selectable<WebhookEvent>> {
    const id = (overrides.id ?? randomUUID()) as WebhookEventId;
    return this.db
      .insertInto('webhook_events')
      .values({
        id,
        account_id: accountId,
        type: 'qrcode.created',
        occurred_at: new Date(),
        body: JSON.stringify({ id, type: 'qrcode.created' }),
        ...overrides,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** A delivery of `event` to `endpoint` (of the endpoint's account), pending and due now unless overridden. */
  async delivery(
    endpoint: Selectable<WebhookEndpoint>,
    event: Selectable<WebhookEvent>,
    overrides: Overrides<WebhookDelivery> = {},
  ): Promise<Selectable<WebhookDelivery>> {
    const now = new Date();
    return this.db
      .insertInto('webhook_deliveries')
      .values({
        id: randomUUID() as DeliveryId,
        account_id: endpoint.account_id,
        endpoint_id: endpoint.id,
        event_id: event.id,
        event_type: event.type,
        next_attempt_at: now,
        created_at: now,
        ...overrides,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** An audit entry of the account (a code's update by no key unless overridden), made now unless overridden. */
  async auditEntry(accountId: AccountId, overrides: Overrides<AuditLogEntry> = {}): Promise<Selectable<AuditLogEntry>> {
    return this.db
      .insertInto('audit_log')
      .values({
        id: randomUUID(),
        account_id: accountId,
        action: 'qrcode.update',
        resource_type: 'qrcode',
        resource_id: randomUUID(),
        changes: JSON.stringify({ before: { name: `Old ${++this.serial}` }, after: { name: `New ${this.serial}` } }),
        ...overrides,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}
