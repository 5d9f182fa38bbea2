import { ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { DeliveryId, WebhookEventId, WebhookId } from '../common/ids/resource-ids';
import { CLOCK, type Clock } from '../common/time/clock';
import type { FieldError } from '../common/validation/field-error';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { AuditTrail } from '../infra/audit/audit-trail';
import { Database } from '../infra/database/database.service';
import { OperationLimits } from '../infra/rate-limit/operation-limits';
import { EVENT_RETENTION_MS } from './delivery/delivery-queue.repository';
import { DeliveryWorker } from './delivery/delivery-worker.service';
import type { DeliveriesQuery, ReplayQuery } from './dto/webhook.dto';
import { TEST_EVENT } from './webhook-event-types';
import { WebhookOutboxRepository } from './webhook-outbox.repository';
import { eventBody } from './webhook-payloads';
import { iso, toAttemptView, toDeliveryView } from './webhook-views';
import { WebhooksRepository } from './webhooks.repository';
import { auditWebhookWrite, ownedWebhook } from './webhooks.service';

/** Deliveries one replay queues at most (the answer says where to continue). */
export const REPLAY_CAP = 1000;
/** Replays per webhook per hour. */
export const REPLAYS_PER_HOUR = 10;

const deliveryNotFound = () => new NotFoundException('Delivery not found');
const disabled = () => new ConflictException('This webhook is disabled: enable it (PATCH enabled: true) first');

/** An endpoint's deliveries (docs/webhooks.md#deliveries): the test event, the log, redelivery and replay. */
@Injectable()
export class WebhookDeliveries {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly outbox: WebhookOutboxRepository,
    private readonly database: Database,
    private readonly worker: DeliveryWorker,
    private readonly limits: OperationLimits,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  /** Queues a webhook.test event to this endpoint (whatever it subscribes to, even when disabled: to check it before enabling it). */
  async test(accountId: AccountId, id: WebhookId) {
    const webhook = await ownedWebhook(this.webhooks, accountId, id);
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
      await auditWebhookWrite(this.audit, tx, { accountId, action: 'webhook.test', id, after: { delivery_id: deliveryId } });
    });
    this.worker.nudge();
    return this.deliveryView(accountId, id, deliveryId);
  }

  async deliveries(accountId: AccountId, id: WebhookId, query: DeliveriesQuery) {
    await ownedWebhook(this.webhooks, accountId, id);
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
    const webhook = await ownedWebhook(this.webhooks, accountId, id);
    if (!webhook.enabled) throw disabled();
    const queued = await this.database.transaction(async (tx) => {
      const delivery = await this.webhooks.redeliver(tx, accountId, id, deliveryId, this.clock.now());
      if (!delivery) throw deliveryNotFound();
      await auditWebhookWrite(this.audit, tx, { accountId, action: 'webhook.redeliver', id, after: { delivery_id: deliveryId } });
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
    const webhook = await ownedWebhook(this.webhooks, accountId, id);
    if (!webhook.enabled) throw disabled();
    await this.limits.take(`webhook-replay:${id}`, REPLAYS_PER_HOUR, 3_600_000, 'replays of this webhook');
    const { queued, nextFrom } = await this.database.transaction(async (tx) => {
      const replayed = await this.webhooks.replay(tx, accountId, id, from, to, now, REPLAY_CAP);
      await auditWebhookWrite(this.audit, tx, {
        accountId,
        action: 'webhook.replay',
        id,
        after: {
          from: from.toISOString(),
          to: to.toISOString(),
          queued: replayed.queued,
        },
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
}
