import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { AccountId } from '../common/ids/account-id';
import type { DeliveryId, WebhookEventId, WebhookId } from '../common/ids/resource-ids';
import type { SqlTransaction } from '../infra/database/sql-session';
import type { Tables } from '../infra/database/tables';
import type { EndpointScope } from './endpoint-scope';
import type { WebhookEventType } from './webhook-event-types';

export interface SubscribedEndpoint extends EndpointScope {
  id: WebhookId;
  accountId: AccountId;
}

export interface NewEvent {
  id: WebhookEventId;
  accountId: AccountId;
  type: WebhookEventType;
  occurredAt: Date;
  body: string;
}

export interface NewDelivery {
  id: DeliveryId;
  accountId: AccountId;
  endpointId: WebhookId;
  eventId: WebhookEventId;
  eventType: WebhookEventType;
  /** The event's time: due at once. */
  at: Date;
}

/** Enabled endpoints subscribed to scans, of some accounts: the partial index webhook_endpoints_scan_subscribers_idx answers it. */
const SCAN_SUBSCRIBERS = `SELECT id::text AS id, account_id::text AS account_id, events, folder_id::text AS folder_id,
    qrcode_ids::text[] AS qrcode_ids
  FROM webhook_endpoints
  WHERE account_id = ANY($1::uuid[]) AND enabled AND events && ARRAY['qrcode.scanned', '*']::varchar(32)[]`;
/**
 * Scans' events go in as one parameter each, sent as they are: a text[] parameter of JSON bodies
 * cost the app more per scan (the pg driver's array escaping) than the redirect itself, and COPY's
 * text format needs every body searched for characters to escape. A store writes few events (one
 * per code and 1,000 scans), so the statement stays small.
 */
const EVENT_COLUMNS = 5;
/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters in one statement. */
const EVENTS_PER_INSERT = 5000;
function insertEventsSql(rows: number): string {
  const values: string[] = [];
  for (let row = 0; row < rows; row++) {
    const at = row * EVENT_COLUMNS;
    values.push(`($${at + 1}::uuid, $${at + 2}::uuid, $${at + 3}, $${at + 4}::timestamptz, $${at + 5})`);
  }
  return `INSERT INTO webhook_events (id, account_id, type, occurred_at, body) VALUES ${values.join(', ')}`;
}
const COPY_DELIVERIES = `COPY webhook_deliveries (id, account_id, endpoint_id, event_id, event_type, next_attempt_at, created_at) FROM STDIN`;

interface EndpointRow {
  id: WebhookId;
  account_id: AccountId;
  events: string[] | null;
  folder_id: string | null;
  qrcode_ids: string[] | null;
}

const toSubscribed = (row: EndpointRow): SubscribedEndpoint => ({
  id: row.id,
  accountId: row.account_id,
  events: row.events ?? [],
  folderId: row.folder_id,
  qrcodeIds: row.qrcode_ids ?? [],
});

/**
 * The outbox: events and their deliveries, written in the caller's transaction, so they commit
 * with the change they describe or not at all. Code changes come in the API's transaction (Kysely
 * over Prisma); scans in the scan store's (raw SQL on the scans pool).
 */
@Injectable()
export class WebhookOutboxRepository {
  /** The account's enabled endpoints subscribed to `type` (or to every event), whichever key made the change. */
  async subscribers(tx: Tables, accountId: AccountId, type: WebhookEventType): Promise<SubscribedEndpoint[]> {
    const rows = await tx
      .forWholeAccount(accountId)
      .selectFrom('webhook_endpoints')
      .select(['id', 'account_id', 'events', 'folder_id', 'qrcode_ids'])
      .where('enabled', '=', true)
      .where(sql<boolean>`events && ${sql.val([type, '*'])}::varchar(32)[]`)
      .execute();
    return rows.map((row) => toSubscribed({ ...row, qrcode_ids: row.qrcode_ids }));
  }

  async insert(tx: Tables, accountId: AccountId, events: NewEvent[], deliveries: NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    const owned = tx.forAccount(accountId);
    await owned
      .insertInto(
        'webhook_events',
        events.map((event) => ({ id: event.id, type: event.type, occurred_at: event.occurredAt, body: event.body })),
      )
      .execute();
    await owned
      .insertInto(
        'webhook_deliveries',
        deliveries.map((delivery) => ({
          id: delivery.id,
          endpoint_id: delivery.endpointId,
          event_id: delivery.eventId,
          event_type: delivery.eventType,
          next_attempt_at: delivery.at,
          created_at: delivery.at,
        })),
      )
      .execute();
  }

  /** Endpoints subscribed to scans of these accounts, in the scan store's transaction. */
  async scanSubscribers(tx: SqlTransaction, accountIds: AccountId[]): Promise<SubscribedEndpoint[]> {
    return (await tx.query<EndpointRow>(SCAN_SUBSCRIBERS, [accountIds])).map(toSubscribed);
  }

  /** Events and deliveries of stored scans, in the scan store's transaction (of any account: system work, by code). */
  async insertScanEvents(tx: SqlTransaction, events: NewEvent[], deliveries: NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    for (let start = 0; start < events.length; start += EVENTS_PER_INSERT) {
      const chunk = events.slice(start, start + EVENTS_PER_INSERT);
      await tx.query(
        insertEventsSql(chunk.length),
        chunk.flatMap((e) => [e.id, e.accountId, e.type, e.occurredAt.toISOString(), e.body]),
      );
    }
    await tx.copyFrom(
      COPY_DELIVERIES,
      deliveries.map((d) => {
        const at = d.at.toISOString();
        return `${d.id}\t${d.accountId}\t${d.endpointId}\t${d.eventId}\t${d.eventType}\t${at}\t${at}\n`;
      }),
    );
  }
}
