import { Gs1Module } from '../gs1/gs1.module';
import { DomainsModule } from '../domains/domains.module';
import { Module } from '@nestjs/common';
import { FoldersModule } from '../folders/folders.module';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { ScansModule } from '../scans/scans.module';
import { DeliveryQueueRepository } from './delivery/delivery-queue.repository';
import { DeliveryWorker } from './delivery/delivery-worker.service';
import { SigningSecrets } from './delivery/signing-secrets';
import { RecentEventBodies } from './recent-event-bodies';
import { WebhookOutboxRepository } from './webhook-outbox.repository';
import { WebhookOutbox } from './webhook-outbox.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';
import { WebhookDeliveries } from './webhook-deliveries.service';
import { WebhookFieldsCheck } from './webhook-fields';

/**
 * Webhooks (docs/webhooks.md): endpoints and their secrets, the outbox written with code changes
 * and stored scans, and the delivery worker. Nothing below it knows it exists: it listens to
 * QrCodeEvents and StoredScanListeners.
 */
@Module({
  imports: [FoldersModule, DomainsModule, QrCodesModule, ScansModule, Gs1Module],
  controllers: [WebhooksController],
  providers: [
    WebhooksRepository,
    WebhooksService,
    WebhookFieldsCheck,
    WebhookDeliveries,
    WebhookOutboxRepository,
    WebhookOutbox,
    SigningSecrets,
    RecentEventBodies,
    DeliveryQueueRepository,
    DeliveryWorker,
  ],
  exports: [DeliveryWorker],
})
export class WebhooksModule {}
