import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { ApiKeyId } from '../common/ids/resource-ids';
import { Database } from '../infra/database/database.service';
import type { Tables } from '../infra/database/tables';
import type { AuditChanges } from './audit-changes';

export interface NewAuditEntry {
  keyId: ApiKeyId | null;
  keyPrefix: string | null;
  action: string;
  resourceType: string;
  resourceId: string | null;
  requestId: string | null;
  changes: AuditChanges;
}

export interface AuditEntryRecord extends NewAuditEntry {
  id: string;
  seq: bigint;
  createdAt: Date;
}

export interface AuditFilter {
  resourceType?: string;
  resourceId?: string;
  keyId?: ApiKeyId;
  action?: string;
  from?: Date;
  to?: Date;
  /** entries older than this one (its seq): the next page */
  beforeSeq?: bigint;
}

/** The audit log (docs/api-keys-and-security.md#audit-log): entries written in their write's transaction, read newest first. */
@Injectable()
export class AuditLogRepository {
  constructor(private readonly database: Database) {}

  async insert(tx: Tables, accountId: AccountId, entry: NewAuditEntry): Promise<void> {
    await tx
      .forAccount(accountId)
      .insertInto('audit_log', [
        {
          id: randomUUID(),
          key_id: entry.keyId,
          key_prefix: entry.keyPrefix,
          action: entry.action,
          resource_type: entry.resourceType,
          resource_id: entry.resourceId,
          request_id: entry.requestId,
          changes: JSON.stringify(entry.changes),
        },
      ])
      .execute();
  }

  /** Up to `limit` entries matching the filter, newest (last committed) first. */
  async page(accountId: AccountId, filter: AuditFilter, limit: number): Promise<AuditEntryRecord[]> {
    let query = this.database.read.forAccount(accountId).selectFrom('audit_log').selectAll();
    if (filter.resourceType !== undefined) query = query.where('resource_type', '=', filter.resourceType);
    if (filter.resourceId !== undefined) query = query.where('resource_id', '=', filter.resourceId);
    if (filter.keyId !== undefined) query = query.where('key_id', '=', filter.keyId);
    if (filter.action !== undefined) query = query.where('action', '=', filter.action);
    if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
    if (filter.beforeSeq !== undefined) query = query.where('seq', '<', filter.beforeSeq);
    const rows = await query.orderBy('seq', 'desc').limit(limit).execute();
    return rows.map((row) => ({
      id: row.id,
      seq: BigInt(row.seq),
      createdAt: row.created_at,
      keyId: row.key_id,
      keyPrefix: row.key_prefix,
      action: row.action,
      resourceType: row.resource_type,
      resourceId: row.resource_id,
      requestId: row.request_id,
      changes: row.changes as AuditChanges,
    }));
  }

  /** Deletes up to `batch` entries (of any account: system work) created before `cutoff`; returns how many. */
  async deleteOlderThan(cutoff: Date, batch: number): Promise<number> {
    const oldest = this.database.write.anyAccount.selectFrom('audit_log').select('id').where('created_at', '<', cutoff).limit(batch);
    const result = await this.database.write.anyAccount.deleteFrom('audit_log').where('id', 'in', oldest).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
