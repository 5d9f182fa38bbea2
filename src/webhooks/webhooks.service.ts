import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { WebhookId } from '../common/ids/resource-ids';
import { CLOCK, type Clock } from '../common/time/clock';
import { AuditTrail } from '../infra/audit/audit-trail';
import { Database } from '../infra/database/database.service';
import type { Tables } from '../infra/database/tables';
import { DeliveryWorker } from './delivery/delivery-worker.service';
import { SigningSecrets } from './delivery/signing-secrets';
import { newSigningSecret } from './delivery/signing';
import type { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook.dto';
import { WebhookFieldsCheck } from './webhook-fields';
import { audited, normalizedEvents, toView } from './webhook-views';
import { type WebhookChanges, type WebhookRecord, WebhooksRepository } from './webhooks.repository';

/** Endpoints per account. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;
/** After a rotation the previous secret keeps signing this long. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export const webhookNotFound = () => new NotFoundException('Webhook not found');

/** The account's endpoint, or 404. */
export async function ownedWebhook(webhooks: WebhooksRepository, accountId: AccountId, id: WebhookId): Promise<WebhookRecord> {
  const webhook = await webhooks.find(accountId, id);
  if (!webhook) throw webhookNotFound();
  return webhook;
}

/** One audit log entry of a write to an endpoint; its signing secret is recorded as "changed", never its value. */
export function auditWebhookWrite(
  audit: AuditTrail,
  tx: Tables,
  write: { accountId: AccountId; action: string; id: WebhookId; before?: Record<string, unknown>; after?: Record<string, unknown> },
): Promise<void> {
  const { accountId, action, id, before, after } = write;
  return audit.record(tx, { accountId, action, resourceType: 'webhook', resourceId: id, before, after, secretFields: ['secret'] });
}

/** Webhook endpoints (docs/webhooks.md): create, read, change, delete, rotate the signing secret. Deliveries: WebhookDeliveries. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly secrets: SigningSecrets,
    private readonly fields: WebhookFieldsCheck,
    private readonly database: Database,
    private readonly worker: DeliveryWorker,
    @Inject(CLOCK) private readonly clock: Clock,
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
    await this.fields.check(accountId, fields);
    if ((await this.webhooks.count(accountId)) >= MAX_WEBHOOKS_PER_ACCOUNT) {
      throw new BadRequestException(`An account has at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks; delete one you no longer use`);
    }
    const id = randomUUID() as WebhookId;
    const secret = newSigningSecret();
    const sealedSecret = await this.secrets.seal(secret, id);
    const created = await this.database.transaction(async (tx) => {
      const inserted = await this.webhooks.insert(tx, accountId, id, { ...fields, sealedSecret }, this.clock.now());
      await this.record(tx, accountId, 'webhook.create', id, undefined, { ...audited(inserted), secret });
      return inserted;
    });
    return { ...toView(created), secret };
  }

  async list(accountId: AccountId) {
    return { data: (await this.webhooks.list(accountId)).map(toView) };
  }

  async get(accountId: AccountId, id: WebhookId) {
    return toView(await ownedWebhook(this.webhooks, accountId, id));
  }

  async update(accountId: AccountId, id: WebhookId, dto: UpdateWebhookDto) {
    const current = await ownedWebhook(this.webhooks, accountId, id);
    const changes: WebhookChanges = {
      url: dto.url,
      description: dto.description,
      events: dto.events && normalizedEvents(dto.events),
      folderId: dto.folder_id,
      qrcodeIds: dto.qrcode_ids,
      enabled: dto.enabled,
    };
    await this.fields.check(accountId, {
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
      await this.record(tx, accountId, 'webhook.update', id, audited(before), audited(after));
      return after;
    });
    if (dto.enabled) this.worker.nudge();
    return toView(updated);
  }

  async delete(accountId: AccountId, id: WebhookId): Promise<void> {
    await this.database.transaction(async (tx) => {
      const deleted = await this.webhooks.delete(tx, accountId, id);
      if (!deleted) throw webhookNotFound();
      await this.record(tx, accountId, 'webhook.delete', id, audited(deleted), undefined);
    });
  }

  /** A new secret; the previous one keeps signing (a second signature) for 24 hours. */
  async rotateSecret(accountId: AccountId, id: WebhookId) {
    await ownedWebhook(this.webhooks, accountId, id);
    const secret = newSigningSecret();
    const now = this.clock.now();
    const sealedSecret = await this.secrets.seal(secret, id);
    const rotated = await this.database.transaction(async (tx) => {
      const before = await this.webhooks.lockForUpdate(tx, accountId, id);
      const after = before && (await this.webhooks.rotateSecret(tx, accountId, id, sealedSecret, now, new Date(now.getTime() + ROTATION_OVERLAP_MS)));
      if (!before || !after) throw webhookNotFound();
      // The log compares the secrets and records each as "changed": the previous one only has to differ from the new one.
      await this.record(tx, accountId, 'webhook.rotate_secret', id, { ...audited(before), secret: 'previous' }, { ...audited(after), secret });
      return after;
    });
    return { ...toView(rotated), secret };
  }

  private record(tx: Tables, accountId: AccountId, action: string, id: WebhookId, before?: Record<string, unknown>, after?: Record<string, unknown>) {
    return auditWebhookWrite(this.audit, tx, { accountId, action, id, before, after });
  }
}
