import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { GrantedScope } from '../common/auth/scopes';
import type { ApiKeyId, FolderId } from '../common/ids/resource-ids';
import { AuditTrail } from '../infra/audit/audit-trail';
import { Database } from '../infra/database/database.service';
import type { Tables } from '../infra/database/tables';

export interface ApiKeyRecord {
  id: ApiKeyId;
  accountId: AccountId;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  scopes: GrantedScope[];
  /** null: every folder */
  folderIds: FolderId[] | null;
  expiresAt: Date | null;
}

export interface NewApiKey {
  accountId?: AccountId;
  name: string;
  prefix: string;
  hash: string;
  scopes: readonly GrantedScope[];
  folderIds: readonly FolderId[] | null;
  expiresAt: Date | null;
}

const KEY_COLUMNS = ['id', 'account_id', 'name', 'prefix', 'created_at', 'last_used_at', 'revoked_at', 'scopes', 'folder_ids', 'expires_at'] as const;
type KeyRow = {
  id: ApiKeyId;
  account_id: AccountId;
  name: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  scopes: string[];
  folder_ids: FolderId[];
  expires_at: Date | null;
};
const toRecord = (row: KeyRow): ApiKeyRecord => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
  scopes: row.scopes as GrantedScope[],
  // Stored empty for "every folder" (docs/data-model.md).
  folderIds: row.folder_ids.length > 0 ? row.folder_ids : null,
  expiresAt: row.expires_at,
});

/** A key's fields as the API shows them (never the key: only that one was issued). */
const audited = (key: ApiKeyRecord): Record<string, unknown> => ({
  name: key.name,
  prefix: key.prefix,
  scopes: key.scopes,
  folder_ids: key.folderIds,
  expires_at: key.expiresAt?.toISOString() ?? null,
});

/**
 * API keys. Authentication looks a key up by its hash before any account is known, and the admin
 * API manages the keys of every account: both work across accounts by nature (anyAccount).
 */
@Injectable()
export class ApiKeysRepository {
  constructor(
    private readonly database: Database,
    private readonly audit: AuditTrail,
  ) {}

  /** The unrevoked key with this hash (expired or not: the caller tells an expired key apart). */
  async findActiveByHash(hash: string): Promise<ApiKeyRecord | null> {
    const row = await this.database.read.anyAccount
      .selectFrom('api_keys')
      .select(KEY_COLUMNS)
      .where('key_hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async touchLastUsed(id: ApiKeyId, at: Date): Promise<void> {
    await this.database.write.anyAccount.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  /** Creates the key, and its account when none is given, in one transaction. */
  async create(input: NewApiKey): Promise<ApiKeyRecord> {
    return this.database.transaction(async (tx) => {
      const accountId =
        input.accountId ??
        (
          await tx.shared
            .insertInto('accounts')
            .values({ id: randomUUID() as AccountId })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const row = await tx
        .forAccount(accountId)
        .insertInto('api_keys', [
          {
            id: randomUUID() as ApiKeyId,
            name: input.name,
            prefix: input.prefix,
            key_hash: input.hash,
            scopes: [...input.scopes],
            folder_ids: [...(input.folderIds ?? [])],
            expires_at: input.expiresAt,
          },
        ])
        .returning(KEY_COLUMNS)
        .executeTakeFirstOrThrow();
      const created = toRecord(row);
      await this.audit.record(tx, {
        accountId,
        action: 'api_key.create',
        resourceType: 'api_key',
        resourceId: created.id,
        after: { ...audited(created), key: 'issued' },
        secretFields: ['key'],
      });
      return created;
    });
  }

  /** How many accounts there are, and the oldest one's id (the only one's, when there is one). */
  async accountCount(): Promise<{ count: number; oldest: AccountId | null }> {
    const accounts = this.database.read.shared;
    const [count, oldest] = await Promise.all([
      accounts
        .selectFrom('accounts')
        .select((eb) => eb.fn.countAll<bigint>().as('n'))
        .executeTakeFirstOrThrow(),
      accounts.selectFrom('accounts').select('id').orderBy('created_at').orderBy('id').limit(1).executeTakeFirst(),
    ]);
    return { count: Number(count.n), oldest: oldest?.id ?? null };
  }

  async accountExists(accountId: AccountId): Promise<boolean> {
    return (await this.database.read.shared.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst()) !== undefined;
  }

  async page(page: number, limit: number): Promise<{ keys: ApiKeyRecord[]; total: number }> {
    const keys = this.database.read.anyAccount;
    const [rows, count] = await Promise.all([
      keys
        .selectFrom('api_keys')
        .select(KEY_COLUMNS)
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      keys
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<bigint>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { keys: rows.map(toRecord), total: Number(count.n) };
  }

  async list(): Promise<ApiKeyRecord[]> {
    const rows = await this.database.read.anyAccount.selectFrom('api_keys').select(KEY_COLUMNS).orderBy('created_at').orderBy('id').execute();
    return rows.map(toRecord);
  }

  /** Marks the key revoked; returns its hash (to drop from caches), or null when no unrevoked key has that id. */
  async revoke(id: ApiKeyId): Promise<string | null> {
    return this.database.transaction(async (tx) => {
      const row = await tx.anyAccount
        .updateTable('api_keys')
        .set({ revoked_at: new Date() })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returning(['key_hash', 'account_id', 'revoked_at'])
        .executeTakeFirst();
      if (!row) return null;
      await this.recordRevoke(tx, row.account_id, id, row.revoked_at);
      return row.key_hash;
    });
  }

  private recordRevoke(tx: Tables, accountId: AccountId, id: ApiKeyId, at: Date | null): Promise<void> {
    return this.audit.record(tx, {
      accountId,
      action: 'api_key.revoke',
      resourceType: 'api_key',
      resourceId: id,
      before: { revoked_at: null },
      after: { revoked_at: at?.toISOString() ?? null },
    });
  }

  /** One page of an account's keys, newest first, and how many there are (self-service). */
  async pageOfAccount(accountId: AccountId, page: number, limit: number): Promise<{ keys: ApiKeyRecord[]; total: number }> {
    const keys = this.database.read.forAccount(accountId);
    const [rows, count] = await Promise.all([
      keys
        .selectFrom('api_keys')
        .select(KEY_COLUMNS)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      keys
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<bigint>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { keys: rows.map(toRecord), total: Number(count.n) };
  }

  /**
   * Revokes the account's key unless it is the account's last working key that can manage keys
   * (`keys:write` or `*`, unexpired, every folder): checked and written in one transaction, under
   * a lock of the account's keys, so two revocations at once cannot both pass. Returns the revoked
   * key's hash, or 'last' when refused, or null when the account has no such unrevoked key.
   */
  async revokeOfAccount(accountId: AccountId, id: ApiKeyId, now: Date): Promise<{ hash: string } | 'last' | null> {
    return this.database.transaction(async (tx) => {
      const keys = tx.forAccount(accountId);
      const active = await keys
        .selectFrom('api_keys')
        .select(['id', 'key_hash', 'scopes', 'folder_ids', 'expires_at'])
        .where('revoked_at', 'is', null)
        .forUpdate()
        .execute();
      const target = active.find((key) => key.id === id);
      if (!target) return null;
      const manages = (key: (typeof active)[number]) =>
        (key.scopes.includes('*') || key.scopes.includes('keys:write')) && key.folder_ids.length === 0 && (!key.expires_at || key.expires_at > now);
      if (manages(target) && !active.some((key) => key.id !== id && manages(key))) return 'last';
      await keys.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).execute();
      await this.recordRevoke(tx, accountId, id, now);
      return { hash: target.key_hash };
    });
  }

  /** Which of `ids` are folders of the account (a restricted key sees only its own: tables.ts). */
  async existingFolders(accountId: AccountId, ids: readonly FolderId[]): Promise<Set<FolderId>> {
    if (ids.length === 0) return new Set();
    const rows = await this.database.read.forAccount(accountId).selectFrom('folders').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((row) => row.id));
  }

  async countActive(): Promise<number> {
    const row = await this.database.read.anyAccount
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
