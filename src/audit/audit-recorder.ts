import { Injectable } from '@nestjs/common';
import { type AuditedWrite, AuditTrail } from '../infra/audit/audit-trail';
import type { Tables } from '../infra/database/tables';
import { actorKeyPrefix, currentRequest } from '../infra/http/request-context';
import { auditChanges } from './audit-changes';
import { AuditLogRepository } from './audit-log.repository';

/**
 * Writes one audit entry in the caller's transaction (docs/api-keys-and-security.md#audit-log),
 * naming the request's key. Apart from AuditLogService so that the CLI records its key writes with
 * nothing more than the database.
 */
@Injectable()
export class AuditRecorder extends AuditTrail {
  constructor(private readonly entries: AuditLogRepository) {
    super();
  }

  /** Writes the entry, unless the write is an update that changed nothing. */
  async record(tx: Tables, write: AuditedWrite): Promise<void> {
    const changes = auditChanges(write);
    if (!changes) return;
    const request = currentRequest();
    await this.entries.insert(tx, write.accountId, {
      keyId: request?.principal?.keyId ?? null,
      keyPrefix: actorKeyPrefix(),
      action: write.action,
      resourceType: write.resourceType,
      resourceId: write.resourceId,
      requestId: request?.requestId ?? null,
      changes,
    });
  }
}
