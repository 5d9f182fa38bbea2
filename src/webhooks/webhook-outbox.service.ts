import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { DeliveryId, QrCodeId, WebhookEventId } from '../common/ids/resource-ids';
import { CLOCK, type Clock } from '../common/time/clock';
import type { SqlTransaction } from '../infra/database/sql-session';
import type { Tables } from '../infra/database/tables';
import { type QrCodeChanged, QrCodeEvents } from '../qrcodes/qr-code-events';
import { toListItem } from '../qrcodes/qr-code.representation';
import type { QrCodeRecord } from '../qrcodes/qr-code.record';
import { QrCodesService } from '../qrcodes/qr-codes.service';
import { StoredScanListeners, type StoredScans } from '../scans/stored-scans';
import { type DomainChanged, DomainEvents } from '../domains/domain-events';
import { toDomainView } from '../domains/domains.service';
import { type Gs1ItemChanged, Gs1ItemEvents } from '../gs1/items/gs1-item-events';
import { wants } from './endpoint-scope';
import type { SubscribableEvent } from './webhook-event-types';
import { type NewDelivery, type NewEvent, type SubscribedEndpoint, WebhookOutboxRepository } from './webhook-outbox.repository';
import { RecentEventBodies } from './recent-event-bodies';
import { eventBody, scannedEventBodies } from './webhook-payloads';

/**
 * Writes webhook events into the outbox in the transaction of what they describe: code changes
 * (QrCodeEvents, in the API's transaction) and stored scans (StoredScanListeners, in the scan
 * store's transaction). A committed change always has its events; a rolled-back one has none.
 * Nothing is written for an account without a subscribed, enabled endpoint (one indexed lookup).
 */
@Injectable()
export class WebhookOutbox implements OnModuleInit {
  constructor(
    private readonly outbox: WebhookOutboxRepository,
    private readonly codeEvents: QrCodeEvents,
    private readonly storedScans: StoredScanListeners,
    private readonly qrCodes: QrCodesService,
    private readonly recentBodies: RecentEventBodies,
    private readonly domainEvents: DomainEvents,
    private readonly gs1ItemEvents: Gs1ItemEvents,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.codeEvents.inTransaction((tx, change) => this.recordCodeChange(tx, change));
    this.domainEvents.inTransaction((tx, change) => this.recordDomainChange(tx, change));
    this.gs1ItemEvents.inTransaction((tx, change) => this.recordGs1ItemChange(tx, change));
    this.storedScans.inTransaction((tx, stored) => this.recordScans(tx, stored));
  }

  private async recordCodeChange(tx: Tables, change: QrCodeChanged): Promise<void> {
    const type: SubscribableEvent = `qrcode.${change.kind}`;
    const endpoints = await this.outbox.subscribers(tx, change.accountId, type);
    if (endpoints.length === 0) return;
    const now = this.clock.now();
    const codes: QrCodeRecord[] = change.kind === 'created' ? change.codes : [change.code];
    const outgoing = new Outgoing();
    for (const code of codes) {
      const data = { qrcode: toListItem(code, this.qrCodes.origins), ...(change.kind === 'updated' ? { changed_fields: change.changed } : {}) };
      outgoing.add(
        change.accountId,
        type,
        now,
        data,
        endpoints.filter((endpoint) => wants(endpoint, type, code)),
      );
    }
    await this.outbox.insert(tx, change.accountId, outgoing.events, outgoing.deliveries);
    this.recentBodies.keep(outgoing.events);
  }

  /**
   * `gs1.item.created`, `gs1.item.updated` and `gs1.item.deleted`, to the account's endpoints that
   * subscribe to them and are not narrowed to some codes or a folder (an item is in neither).
   */
  private async recordGs1ItemChange(tx: Tables, change: Gs1ItemChanged): Promise<void> {
    const type: SubscribableEvent = `gs1.item.${change.kind}`;
    const endpoints = (await this.outbox.subscribers(tx, change.accountId, type)).filter(
      (endpoint) => !endpoint.folderId && endpoint.qrcodeIds.length === 0,
    );
    if (endpoints.length === 0) return;
    const data = { gs1_item: change.item, ...(change.kind === 'updated' ? { changed_fields: change.changed } : {}) };
    const outgoing = new Outgoing();
    outgoing.add(change.accountId, type, this.clock.now(), data, endpoints);
    await this.outbox.insert(tx, change.accountId, outgoing.events, outgoing.deliveries);
    this.recentBodies.keep(outgoing.events);
  }

  /**
   * `domain.verified` and `domain.failing`, to the account's endpoints that subscribe to them and
   * are not narrowed to some codes or a folder (a domain is neither).
   */
  private async recordDomainChange(tx: Tables, change: DomainChanged): Promise<void> {
    if (change.kind !== 'verified' && change.kind !== 'failing') return;
    const type: SubscribableEvent = `domain.${change.kind}`;
    const endpoints = (await this.outbox.subscribers(tx, change.accountId, type)).filter(
      (endpoint) => !endpoint.folderId && endpoint.qrcodeIds.length === 0,
    );
    if (endpoints.length === 0) return;
    const outgoing = new Outgoing();
    outgoing.add(change.accountId, type, this.clock.now(), { domain: toDomainView(change.domain) }, endpoints);
    await this.outbox.insert(tx, change.accountId, outgoing.events, outgoing.deliveries);
    this.recentBodies.keep(outgoing.events);
  }

  private async recordScans(tx: SqlTransaction, stored: StoredScans): Promise<void> {
    const accounts = [...new Set([...stored.codes.values()].map((code) => code.accountId))];
    if (accounts.length === 0) return;
    const endpoints = await this.outbox.scanSubscribers(tx, accounts);
    if (endpoints.length === 0) return;
    const type = 'qrcode.scanned';
    const byCode = new Map<QrCodeId, SubscribedEndpoint[]>();
    for (const [id, code] of stored.codes) {
      const wanting = endpoints.filter((endpoint) => endpoint.accountId === code.accountId && wants(endpoint, type, { id, folderId: code.folderId }));
      if (wanting.length > 0) byCode.set(id, wanting);
    }
    if (byCode.size === 0) return;
    // Bots (link previews, crawlers) are not counted as scans, and send no event either.
    const rows = stored.rowsOf(new Set(byCode.keys())).filter((row) => !row.isBot);
    const rowsByCode = new Map<QrCodeId, typeof rows>();
    for (const row of rows) {
      const list = rowsByCode.get(row.codeId);
      if (list) list.push(row);
      else rowsByCode.set(row.codeId, [row]);
    }
    const now = this.clock.now();
    const outgoing = new Outgoing();
    for (const [id, codeRows] of rowsByCode) {
      const code = stored.codes.get(id)!;
      for (const body of scannedEventBodies({ id, shortCode: code.shortCode }, codeRows, now))
        outgoing.addBody(code.accountId, type, now, body, byCode.get(id)!);
    }
    await this.outbox.insertScanEvents(tx, outgoing.events, outgoing.deliveries);
    this.recentBodies.keep(outgoing.events);
  }
}

/** Events and their deliveries, built up before one write. */
class Outgoing {
  readonly events: NewEvent[] = [];
  readonly deliveries: NewDelivery[] = [];

  add(accountId: AccountId, type: SubscribableEvent, at: Date, data: object, endpoints: readonly SubscribedEndpoint[]): void {
    if (endpoints.length > 0) this.addBody(accountId, type, at, eventBody(type, at, data), endpoints);
  }

  /** An event whose body is already written (scans: see scannedEventBodies). */
  addBody(accountId: AccountId, type: SubscribableEvent, at: Date, body: string, endpoints: readonly SubscribedEndpoint[]): void {
    if (endpoints.length === 0) return;
    const eventId = randomUUID() as WebhookEventId;
    this.events.push({ id: eventId, accountId, type, occurredAt: at, body });
    for (const endpoint of endpoints) {
      this.deliveries.push({ id: randomUUID() as DeliveryId, accountId, endpointId: endpoint.id, eventId, eventType: type, at });
    }
  }
}
