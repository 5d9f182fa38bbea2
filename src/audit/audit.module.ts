import { Global, Module } from '@nestjs/common';
import { AuditTrail } from '../infra/audit/audit-trail';
import { QrCodesModule } from '../qrcodes/qrcodes.module';
import { AuditLogController } from './audit-log.controller';
import { AuditLogRepository } from './audit-log.repository';
import { AuditLogService } from './audit-log.service';
import { AuditRecorder } from './audit-recorder';

/**
 * The audit log (docs/api-keys-and-security.md#audit-log). Global for one thing only: the
 * AuditTrail port, which folders, webhooks and keys call inside their transactions without
 * importing this module (it sits above them: it listens to QrCodeEvents).
 */
@Global()
@Module({
  imports: [QrCodesModule],
  controllers: [AuditLogController],
  providers: [AuditLogRepository, AuditRecorder, AuditLogService, { provide: AuditTrail, useExisting: AuditRecorder }],
  exports: [AuditTrail],
})
export class AuditModule {}
