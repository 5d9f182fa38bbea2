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

  /**
   * The sequence number of the oldest entry (of any account: system work) created at or after
   * `cutoff`, or null when there is none. Every entry numbered below it is older than `cutoff`
   * (retention deletes by number: the table has no index on its time, which every write would pay).
   */
  async firstSeqFrom(cutoff: Date): Promise<bigint | null> {
    const row = await this.database.read.anyAccount
      .selectFrom('audit_log')
      .select('seq')
      .where('created_at', '>=', cutoff)
      .orderBy('seq')
      .limit(1)
      .executeTakeFirst();
    return row ? BigInt(row.seq) : null;
  }

  /** Deletes up to `batch` of the oldest entries numbered below `beforeSeq` (null: any); returns how many. */
  async deleteOldest(beforeSeq: bigint | null, batch: number): Promise<number> {
    let oldest = this.database.write.anyAccount.selectFrom('audit_log').select('seq').orderBy('seq').limit(batch);
    if (beforeSeq !== null) oldest = oldest.where('seq', '<', beforeSeq);
    const result = await this.database.write.anyAccount.deleteFrom('audit_log').where('seq', 'in', oldest).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
