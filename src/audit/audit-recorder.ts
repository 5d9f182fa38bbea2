import { Injectable } from '@nestjs/common';
import { type AuditedWrite, AuditTrail } from '../infra/audit/audit-trail';
import type { Tables } from '../infra/database/tables';
import { currentRequest } from '../infra/http/request-context';
import { auditChanges } from './audit-changes';
import { AuditLogRepository } from './audit-log.repository';

/** The actor of a write made with the admin token (no key). */
const ADMIN_PREFIX = 'admin';

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

  async record(tx: Tables, write: AuditedWrite): Promise<void> {
    const request = currentRequest();
    const key = request?.principal;
    await this.entries.insert(tx, write.accountId, {
      keyId: key?.keyId ?? null,
      // Inside a request without a key, the admin token made the write; outside one (start-up's first key, the CLI), no key did.
      keyPrefix: key?.keyPrefix ?? (request ? ADMIN_PREFIX : null),
      action: write.action,
      resourceType: write.resourceType,
      resourceId: write.resourceId,
      requestId: request?.requestId ?? null,
      changes: auditChanges(write),
    });
  }
}
