import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import type { AccountId } from '../common/ids/account-id';
import type { DeliveryId, WebhookId } from '../common/ids/resource-ids';
import { MessageView } from '../common/openapi/common-views';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, JSON_BODY_ERRORS, type ErrorResponses } from '../common/openapi/error-responses';
import { ApiJsonBody } from '../common/openapi/json-body';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { deliveryIdPipe, webhookIdPipe } from '../common/validation/resource-id.pipe';
import { Idempotent } from '../infra/idempotency/idempotent.decorator';
import {
  CREATE_WEBHOOK_EXAMPLES,
  CreateWebhookDto,
  DeliveriesQuery,
  DeliveryDetailView,
  DeliveryListView,
  QueuedDeliveryView,
  ReplayQuery,
  ReplayView,
  UPDATE_WEBHOOK_EXAMPLES,
  UpdateWebhookDto,
  WebhookGetView,
  WebhookListView,
  WebhookWithSecretView,
} from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';
import { WebhookDeliveries } from './webhook-deliveries.service';

const ApiWebhookIdParam = () =>
  ApiParam({ name: 'id', description: 'Id of one of your webhook endpoints', format: 'uuid', example: '3b7c1f1e-2a4d-4c55-9a0e-1f6b8e7d9c21' });
const ApiDeliveryIdParam = () =>
  ApiParam({
    name: 'delivery_id',
    description: "Id of a delivery in the endpoint's log",
    format: 'uuid',
    example: '0c2f3a6e-8d1b-4f4e-9a57-2b6c8d0e1f3a',
  });

const WEBHOOK_NOT_FOUND = {
  404: { description: 'No such webhook endpoint among yours', message: 'Webhook not found' },
} as const satisfies ErrorResponses;
const DELIVERY_NOT_FOUND = {
  404: { description: 'No such webhook endpoint among yours, or no such delivery in its log', message: 'Delivery not found' },
} as const satisfies ErrorResponses;
const ID_NOT_A_UUID = {
  400: { message: 'Validation failed: id must be a UUID', errors: [{ field: 'id', message: 'id must be a UUID' }] },
} as const satisfies ErrorResponses;
const WEBHOOK_DISABLED = {
  409: { description: 'The webhook is disabled', message: 'This webhook is disabled: enable it (PATCH enabled: true) first' },
} as const satisfies ErrorResponses;
const URL_REFUSED = {
  400: {
    description: 'Invalid input: a URL that is not https, points to an internal address, or events that do not exist',
    message: 'Validation failed: url must use https (http is accepted only when the server sets WEBHOOK_ALLOW_HTTP=1)',
    errors: [{ field: 'url', message: 'url must use https (http is accepted only when the server sets WEBHOOK_ALLOW_HTTP=1)' }],
  },
} as const satisfies ErrorResponses;

@ApiTags('webhooks')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly deliveryLog: WebhookDeliveries,
  ) {}

  @Post()
  @RequiredScope('webhooks:write')
  // The secret is not kept with the idempotency key: a replay answers secret: null (rotate it if the first answer was lost).
  @Idempotent({ notKept: ['secret'] })
  @ApiOperation({ operationId: 'createWebhook', summary: 'Create a webhook endpoint; the answer holds its signing secret, shown only this once' })
  @ApiJsonBody(CreateWebhookDto, CREATE_WEBHOOK_EXAMPLES)
  @ApiCreatedResponse({ type: WebhookWithSecretView, description: 'Created' })
  @ApiErrorResponses({ ...URL_REFUSED, ...JSON_BODY_ERRORS })
  create(@CurrentAccount() account: AccountId, @Body() body: CreateWebhookDto) {
    return this.webhooks.create(account, body);
  }

  @Get()
  @RequiredScope('webhooks:read')
  @ApiOperation({ operationId: 'listWebhooks', summary: 'List your webhook endpoints' })
  @ApiOkResponse({ type: WebhookListView, description: 'Every endpoint of yours (at most 20)' })
  list(@CurrentAccount() account: AccountId) {
    return this.webhooks.list(account);
  }

  @Get(':id')
  @RequiredScope('webhooks:read')
  @ApiOperation({ operationId: 'getWebhook', summary: 'Get a webhook endpoint' })
  @ApiWebhookIdParam()
  @ApiOkResponse({ type: WebhookGetView, description: 'The endpoint' })
  @ApiErrorResponses({ ...ID_NOT_A_UUID, ...WEBHOOK_NOT_FOUND })
  get(@CurrentAccount() account: AccountId, @Param('id', webhookIdPipe) id: WebhookId) {
    return this.webhooks.get(account, id);
  }

  @Patch(':id')
  @RequiredScope('webhooks:write')
  @ApiOperation({
    operationId: 'updateWebhook',
    summary: 'Change a webhook endpoint (only the fields sent change); enabled: true re-enables a disabled one',
  })
  @ApiWebhookIdParam()
  @ApiJsonBody(UpdateWebhookDto, UPDATE_WEBHOOK_EXAMPLES)
  @ApiOkResponse({ type: WebhookGetView, description: 'The endpoint as changed' })
  @ApiErrorResponses({ ...URL_REFUSED, ...WEBHOOK_NOT_FOUND, ...JSON_BODY_ERRORS })
  update(@CurrentAccount() account: AccountId, @Param('id', webhookIdPipe) id: WebhookId, @Body() body: UpdateWebhookDto) {
    return this.webhooks.update(account, id, body);
  }

  @Delete(':id')
  @RequiredScope('webhooks:write')
  @HttpCode(200)
  @ApiOperation({ operationId: 'deleteWebhook', summary: 'Delete a webhook endpoint and its delivery log' })
  @ApiWebhookIdParam()
  @ApiOkResponse({ type: MessageView, description: 'Deleted; nothing more is sent to it' })
  @ApiErrorResponses({ ...ID_NOT_A_UUID, ...WEBHOOK_NOT_FOUND })
  async delete(@CurrentAccount() account: AccountId, @Param('id', webhookIdPipe) id: WebhookId) {
    await this.webhooks.delete(account, id);
    return { message: 'Webhook deleted' };
  }

  @Post(':id/rotate-secret')
  @RequiredScope('webhooks:write')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'Issue a new signing secret; the previous one keeps signing (a second signature) for 24 hours',
  })
  @ApiWebhookIdParam()
  @ApiOkResponse({ type: WebhookWithSecretView, description: 'The endpoint with its new secret, shown only this once' })
  @ApiErrorResponses({ ...ID_NOT_A_UUID, ...WEBHOOK_NOT_FOUND })
  rotateSecret(@CurrentAccount() account: AccountId, @Param('id', webhookIdPipe) id: WebhookId) {
    return this.webhooks.rotateSecret(account, id);
  }

  @Post(':id/test')
  @RequiredScope('webhooks:write')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'testWebhook',
    summary: 'Send a webhook.test event to this endpoint (also when it is disabled); follow it in the delivery log',
  })
  @ApiWebhookIdParam()
  @ApiAcceptedResponse({ type: QueuedDeliveryView, description: 'Queued: the delivery as it starts' })
  @ApiErrorResponses({ ...ID_NOT_A_UUID, ...WEBHOOK_NOT_FOUND })
  test(@CurrentAccount() account: AccountId, @Param('id', webhookIdPipe) id: WebhookId) {
    return this.deliveryLog.test(account, id);
  }

  @Get(':id/deliveries')
  @RequiredScope('webhooks:read')
  @ApiOperation({ operationId: 'listWebhookDeliveries', summary: 'The delivery log of a webhook endpoint, newest first' })
  @ApiWebhookIdParam()
  @ApiOkResponse({ type: DeliveryListView, description: 'One page of the log' })
  @ApiErrorResponses({
    400: {
      message: 'Validation failed: status must be one of: pending, succeeded, failed',
      errors: [{ field: 'status', message: 'status must be one of: pending, succeeded, failed' }],
    },
    ...WEBHOOK_NOT_FOUND,
  })
  deliveries(@CurrentAccount() account: AccountId, @Param('id', webhookIdPipe) id: WebhookId, @Query() query: DeliveriesQuery) {
    return this.deliveryLog.deliveries(account, id, query);
  }

  @Get(':id/deliveries/:delivery_id')
  @RequiredScope('webhooks:read')
  @ApiOperation({
    operationId: 'getWebhookDelivery',
    summary: 'A delivery with its payload and every attempt (status, latency, first 1 KB of the response)',
  })
  @ApiWebhookIdParam()
  @ApiDeliveryIdParam()
  @ApiOkResponse({ type: DeliveryDetailView, description: 'The delivery and its attempts' })
  @ApiErrorResponses({ ...ID_NOT_A_UUID, ...DELIVERY_NOT_FOUND })
  delivery(
    @CurrentAccount() account: AccountId,
    @Param('id', webhookIdPipe) id: WebhookId,
    @Param('delivery_id', deliveryIdPipe) deliveryId: DeliveryId,
  ) {
    return this.deliveryLog.delivery(account, id, deliveryId);
  }

  @Post(':id/deliveries/:delivery_id/redeliver')
  @RequiredScope('webhooks:write')
  @HttpCode(202)
  @ApiOperation({ operationId: 'redeliverWebhookDelivery', summary: 'Send a delivery again now, with a fresh retry schedule (same webhook-id)' })
  @ApiWebhookIdParam()
  @ApiDeliveryIdParam()
  @ApiAcceptedResponse({ type: QueuedDeliveryView, description: 'Queued again' })
  @ApiErrorResponses({ ...ID_NOT_A_UUID, ...DELIVERY_NOT_FOUND, ...WEBHOOK_DISABLED })
  redeliver(
    @CurrentAccount() account: AccountId,
    @Param('id', webhookIdPipe) id: WebhookId,
    @Param('delivery_id', deliveryIdPipe) deliveryId: DeliveryId,
  ) {
    return this.deliveryLog.redeliver(account, id, deliveryId);
  }

  @Post(':id/replay')
  @RequiredScope('webhooks:write')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'replayWebhookDeliveries',
    summary: 'Send again every finished delivery of events in [from, to): at most 1,000 per call, 10 calls per webhook an hour',
  })
  @ApiWebhookIdParam()
  @ApiAcceptedResponse({ type: ReplayView, description: 'Queued again; `next_from` says where to continue when more matched' })
  @ApiErrorResponses({
    400: {
      message: 'Validation failed: from must be an ISO 8601 date-time',
      errors: [{ field: 'from', message: 'from must be an ISO 8601 date-time' }],
    },
    ...WEBHOOK_NOT_FOUND,
    ...WEBHOOK_DISABLED,
  })
  replay(@CurrentAccount() account: AccountId, @Param('id', webhookIdPipe) id: WebhookId, @Query() query: ReplayQuery) {
    return this.deliveryLog.replay(account, id, query);
  }
}
