import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { ApiKeyId } from '../common/ids/resource-ids';
import { Database } from '../infra/database/database.service';

export interface ApiKeyRecord {
  id: ApiKeyId;
  accountId: AccountId;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const KEY_COLUMNS = ['id', 'account_id', 'name', 'prefix', 'created_at', 'last_used_at', 'revoked_at'] as const;
type KeyRow = {
  id: ApiKeyId;
  account_id: AccountId;
  name: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
};
const toRecord = (row: KeyRow): ApiKeyRecord => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
});

/**
 * API keys. Authentication looks a key up by its hash before any account is known, and the admin
 * API manages the keys of every account: both work across accounts by nature (anyAccount).
 */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly database: Database) {}

  async findActiveByHash(hash: string): Promise<{ id: ApiKeyId; accountId: AccountId; lastUsedAt: Date | null } | null> {
    const row = await this.database.read.anyAccount
      .selectFrom('api_keys')
      .select(['id', 'account_id', 'last_used_at'])
      .where('key_hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row ? { id: row.id, accountId: row.account_id, lastUsedAt: row.last_used_at } : null;
  }

  async touchLastUsed(id: ApiKeyId, at: Date): Promise<void> {
    await this.database.write.anyAccount.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  /** Creates the key, and its account when none is given, in one transaction. */
  async create(input: { accountId?: AccountId; name: string; prefix: string; hash: string }): Promise<ApiKeyRecord> {
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
        .insertInto('api_keys', [{ id: randomUUID() as ApiKeyId, name: input.name, prefix: input.prefix, key_hash: input.hash }])
        .returning(KEY_COLUMNS)
        .executeTakeFirstOrThrow();
      return toRecord(row);
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
    const row = await this.database.write.anyAccount
      .updateTable('api_keys')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returning('key_hash')
      .executeTakeFirst();
    return row?.key_hash ?? null;
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
