import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { DeliveryId, QrCodeId, WebhookEventId, WebhookId } from '../common/ids/resource-ids';
import { CLOCK, type Clock } from '../common/time/clock';
import type { FieldError } from '../common/validation/field-error';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { OUTSIDE_KEY_FOLDERS, restrictedFolders } from '../infra/http/request-context';
import { FoldersService, NOT_YOUR_FOLDER } from '../folders/folders.service';
import { AuditTrail } from '../infra/audit/audit-trail';
import { Database } from '../infra/database/database.service';
import type { Tables } from '../infra/database/tables';
import { OperationLimits } from '../infra/rate-limit/operation-limits';
import { QrCodesService } from '../qrcodes/qr-codes.service';
import { DeliveryWorker, EVENT_RETENTION_MS } from './delivery/delivery-worker.service';
import { SigningSecrets } from './delivery/signing-secrets';
import { newSigningSecret } from './delivery/signing';
import type { CreateWebhookDto, DeliveriesQuery, ReplayQuery, UpdateWebhookDto } from './dto/webhook.dto';
import { ALL_EVENTS, TEST_EVENT } from './webhook-event-types';
import { WebhookOutboxRepository } from './webhook-outbox.repository';
import { eventBody } from './webhook-payloads';
import { type AttemptRow, type DeliveryRecord, type WebhookChanges, type WebhookRecord, WebhooksRepository } from './webhooks.repository';
import { urlError } from './webhook-url';

/** Endpoints per account. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;
/** After a rotation the previous secret keeps signing this long. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** Deliveries one replay queues at most (the answer says where to continue). */
export const REPLAY_CAP = 1000;
/** Replays per webhook per hour. */
export const REPLAYS_PER_HOUR = 10;

const webhookNotFound = () => new NotFoundException('Webhook not found');
const deliveryNotFound = () => new NotFoundException('Delivery not found');
const iso = (date: Date | null) => (date ? date.toISOString() : null);

@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly outbox: WebhookOutboxRepository,
    private readonly secrets: SigningSecrets,
    private readonly folders: FoldersService,
    private readonly qrCodes: QrCodesService,
    private readonly database: Database,
    private readonly worker: DeliveryWorker,
    private readonly limits: OperationLimits,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly audit: AuditTrail,
  ) {}

  async create(accountId: AccountId, dto: CreateWebhookDto) {
    const fields = {
      url: dto.url,
      description: dto.description ?? '',
      events: normalizedEvents(dto.events),
      folderId: dto.folder_id ?? null,
      qrcodeIds: dto.qrcode_ids ?? [],
      enabled: dto.enabled ?? true,
    };
    await this.checkFields(accountId, fields);
    if ((await this.webhooks.count(accountId)) >= MAX_WEBHOOKS_PER_ACCOUNT) {
      throw new BadRequestException(`An account has at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks; delete one you no longer use`);
    }
    const id = randomUUID() as WebhookId;
    const secret = newSigningSecret();
    const sealedSecret = await this.secrets.seal(secret, id);
    const created = await this.database.transaction(async (tx) => {
      const inserted = await this.webhooks.insert(tx, accountId, id, { ...fields, sealedSecret }, this.clock.now());
      await this.recordChange(tx, accountId, 'webhook.create', id, undefined, { ...audited(inserted), secret });
      return inserted;
    });
    return { ...toView(created), secret };
  }

  async list(accountId: AccountId) {
    return { data: (await this.webhooks.list(accountId)).map(toView) };
  }

  async get(accountId: AccountId, id: WebhookId) {
    return toView(await this.findOwned(accountId, id));
  }

  async update(accountId: AccountId, id: WebhookId, dto: UpdateWebhookDto) {
    const current = await this.findOwned(accountId, id);
    const changes: WebhookChanges = {
      url: dto.url,
      description: dto.description,
      events: dto.events && normalizedEvents(dto.events),
      folderId: dto.folder_id,
      qrcodeIds: dto.qrcode_ids,
      enabled: dto.enabled,
    };
    await this.checkFields(accountId, {
      url: changes.url,
      folderId: changes.folderId === undefined ? current.folderId : changes.folderId,
      qrcodeIds: changes.qrcodeIds ?? current.qrcodeIds,
      checkFolder: changes.folderId !== undefined,
      checkCodes: changes.qrcodeIds !== undefined,
    });
    const updated = await this.database.transaction(async (tx) => {
      const before = await this.webhooks.lockForUpdate(tx, accountId, id);
      const after = before && (await this.webhooks.update(tx, accountId, id, changes, this.clock.now()));
      if (!before || !after) throw webhookNotFound();
      await this.recordChange(tx, accountId, 'webhook.update', id, audited(before), audited(after));
      return after;
    });
    if (dto.enabled) this.worker.nudge();
    return toView(updated);
  }

  async delete(accountId: AccountId, id: WebhookId): Promise<void> {
    await this.database.transaction(async (tx) => {
      const deleted = await this.webhooks.delete(tx, accountId, id);
      if (!deleted) throw webhookNotFound();
      await this.recordChange(tx, accountId, 'webhook.delete', id, audited(deleted), undefined);
    });
  }

  /** A new secret; the previous one keeps signing (a second signature) for 24 hours. */
  async rotateSecret(accountId: AccountId, id: WebhookId) {
    await this.findOwned(accountId, id);
    const secret = newSigningSecret();
    const now = this.clock.now();
    const sealedSecret = await this.secrets.seal(secret, id);
    const rotated = await this.database.transaction(async (tx) => {
      const before = await this.webhooks.lockForUpdate(tx, accountId, id);
      const after = before && (await this.webhooks.rotateSecret(tx, accountId, id, sealedSecret, now, new Date(now.getTime() + ROTATION_OVERLAP_MS)));
      if (!before || !after) throw webhookNotFound();
      // The log compares the secrets and records each as "changed": the previous one only has to differ from the new one.
      await this.recordChange(tx, accountId, 'webhook.rotate_secret', id, { ...audited(before), secret: 'previous' }, { ...audited(after), secret });
      return after;
    });
    return { ...toView(rotated), secret };
  }

  /** Queues a webhook.test event to this endpoint (whatever it subscribes to, even when disabled: to check it before enabling it). */
  async test(accountId: AccountId, id: WebhookId) {
    const webhook = await this.findOwned(accountId, id);
    const now = this.clock.now();
    const eventId = randomUUID() as WebhookEventId;
    const deliveryId = randomUUID() as DeliveryId;
    const data = {
      webhook: { id: webhook.id, url: webhook.url },
      message: 'A test event sent by POST /api/v1/webhooks/{id}/test: your endpoint receives and verifies webhooks.',
    };
    await this.database.transaction(async (tx) => {
      await this.outbox.insert(
        tx,
        accountId,
        [{ id: eventId, accountId, type: TEST_EVENT, occurredAt: now, body: eventBody(TEST_EVENT, now, data) }],
        [{ id: deliveryId, accountId, endpointId: id, eventId, eventType: TEST_EVENT, at: now }],
      );
      await this.recordChange(tx, accountId, 'webhook.test', id, undefined, { delivery_id: deliveryId });
    });
    this.worker.nudge();
    return this.deliveryView(accountId, id, deliveryId);
  }

  async deliveries(accountId: AccountId, id: WebhookId, query: DeliveriesQuery) {
    await this.findOwned(accountId, id);
    const { items, total } = await this.webhooks.deliveryPage(
      accountId,
      id,
      { status: query.status, eventType: query.event_type },
      query.page,
      query.limit,
    );
    return {
      data: items.map(toDeliveryView),
      pagination: { page: query.page, limit: query.limit, total, total_pages: Math.ceil(total / query.limit) },
    };
  }

  async delivery(accountId: AccountId, id: WebhookId, deliveryId: DeliveryId) {
    const found = await this.webhooks.delivery(accountId, id, deliveryId);
    if (!found) throw deliveryNotFound();
    return {
      ...toDeliveryView(found.delivery),
      payload: JSON.parse(found.body) as Record<string, unknown>,
      attempts: found.attempts.map(toAttemptView),
    };
  }

  async redeliver(accountId: AccountId, id: WebhookId, deliveryId: DeliveryId) {
    const webhook = await this.findOwned(accountId, id);
    if (!webhook.enabled) throw disabled();
    const queued = await this.database.transaction(async (tx) => {
      const delivery = await this.webhooks.redeliver(tx, accountId, id, deliveryId, this.clock.now());
      if (!delivery) throw deliveryNotFound();
      await this.recordChange(tx, accountId, 'webhook.redeliver', id, undefined, { delivery_id: deliveryId });
      return delivery;
    });
    this.worker.nudge();
    return toDeliveryView(queued);
  }

  async replay(accountId: AccountId, id: WebhookId, query: ReplayQuery) {
    const now = this.clock.now();
    const from = new Date(query.from);
    const to = query.to ? new Date(query.to) : now;
    const errors: FieldError[] = [];
    if (to <= from) errors.push({ field: 'to', message: 'to must be later than from' });
    if (from.getTime() < now.getTime() - EVENT_RETENTION_MS)
      errors.push({ field: 'from', message: 'from must be within the last 30 days (events are kept 30 days)' });
    if (errors.length > 0) throw new ValidationFailedException(errors);
    const webhook = await this.findOwned(accountId, id);
    if (!webhook.enabled) throw disabled();
    await this.limits.take(`webhook-replay:${id}`, REPLAYS_PER_HOUR, 3_600_000, 'replays of this webhook');
    const { queued, nextFrom } = await this.database.transaction(async (tx) => {
      const replayed = await this.webhooks.replay(tx, accountId, id, from, to, now, REPLAY_CAP);
      await this.recordChange(tx, accountId, 'webhook.replay', id, undefined, {
        from: from.toISOString(),
        to: to.toISOString(),
        queued: replayed.queued,
      });
      return replayed;
    });
    this.worker.nudge();
    return { queued, next_from: iso(nextFrom) };
  }

  private async deliveryView(accountId: AccountId, id: WebhookId, deliveryId: DeliveryId) {
    const found = await this.webhooks.delivery(accountId, id, deliveryId);
    if (!found) throw deliveryNotFound();
    return toDeliveryView(found.delivery);
  }

  /** One audit log entry of a write to the endpoint; its signing secret is recorded as "changed", never its value. */
  private recordChange(
    tx: Tables,
    accountId: AccountId,
    action: string,
    id: WebhookId,
    before?: Record<string, unknown>,
    after?: Record<string, unknown>,
  ) {
    return this.audit.record(tx, { accountId, action, resourceType: 'webhook', resourceId: id, before, after, secretFields: ['secret'] });
  }

  private async findOwned(accountId: AccountId, id: WebhookId): Promise<WebhookRecord> {
    const webhook = await this.webhooks.find(accountId, id);
    if (!webhook) throw webhookNotFound();
    return webhook;
  }

  /** The URL rules, one scope at most, and that the scope's folder and codes are the account's. */
  private async checkFields(
    accountId: AccountId,
    fields: { url?: string; folderId: WebhookRecord['folderId']; qrcodeIds: readonly string[]; checkFolder?: boolean; checkCodes?: boolean },
  ): Promise<void> {
    const errors: FieldError[] = [];
    const url = fields.url === undefined ? null : urlError(fields.url, this.config.webhooks);
    if (url) errors.push(url);
    if (fields.folderId && fields.qrcodeIds.length > 0)
      errors.push({
        field: 'qrcode_ids',
        message: 'a webhook is scoped to a folder or to codes, not both: set folder_id to null or qrcode_ids to []',
      });
    // A folder-restricted key's webhooks are scoped to one of its folders (tables.ts shows it no others).
    if (!fields.folderId && restrictedFolders(accountId)) errors.push({ field: 'folder_id', message: OUTSIDE_KEY_FOLDERS });
    if (errors.length > 0) throw new ValidationFailedException(errors);
    if (fields.folderId && fields.checkFolder !== false && !(await this.folders.ownedAmong(accountId, [fields.folderId])).has(fields.folderId)) {
      errors.push(NOT_YOUR_FOLDER);
    }
    if (fields.qrcodeIds.length > 0 && fields.checkCodes !== false) {
      const ids = [...new Set(fields.qrcodeIds)] as QrCodeId[];
      const owned = await this.qrCodes.ownedAmong(accountId, ids);
      const missing = ids.filter((codeId) => !owned.has(codeId));
      if (missing.length > 0)
        errors.push({
          field: 'qrcode_ids',
          message: `qrcode_ids must name codes of yours (not found: ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''})`,
        });
    }
    if (errors.length > 0) throw new ValidationFailedException(errors);
  }
}

const disabled = () => new ConflictException('This webhook is disabled: enable it (PATCH enabled: true) first');

/** `*` stands for every event: listed with others, the others add nothing. */
const normalizedEvents = (events: string[]) => (events.includes(ALL_EVENTS) ? [ALL_EVENTS] : events);

function toView(webhook: WebhookRecord) {
  return {
    id: webhook.id,
    url: webhook.url,
    description: webhook.description,
    events: webhook.events,
    folder_id: webhook.folderId,
    qrcode_ids: webhook.qrcodeIds,
    enabled: webhook.enabled,
    disabled_reason: webhook.disabledReason,
    previous_secret_expires_at: iso(webhook.previousSecretExpiresAt),
    created_at: webhook.createdAt.toISOString(),
    updated_at: webhook.updatedAt.toISOString(),
  };
}

/** The endpoint's fields a client sets or sees change (not its timestamps), in the API's names. */
function audited(webhook: WebhookRecord): Record<string, unknown> {
  const { id: _id, created_at: _created, updated_at: _updated, ...fields } = toView(webhook);
  return fields;
}

function toDeliveryView(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    webhook_id: delivery.endpoint_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    status: delivery.status,
    attempt_count: delivery.attempt_count,
    next_attempt_at: delivery.status === 'pending' ? iso(delivery.next_attempt_at) : null,
    last_attempt_at: iso(delivery.last_attempt_at),
    last_status_code: delivery.last_status_code,
    last_error: delivery.last_error,
    created_at: delivery.created_at.toISOString(),
  };
}

function toAttemptView(attempt: AttemptRow) {
  return {
    attempted_at: attempt.attempted_at.toISOString(),
    status_code: attempt.status_code,
    error: attempt.error,
    duration_ms: attempt.duration_ms,
    response_snippet: attempt.response_snippet,
    outcome: attempt.outcome,
  };
}
