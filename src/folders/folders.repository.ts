import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { FolderId } from '../common/ids/resource-ids';
import { Database } from '../infra/database/database.service';
import type { AccountTables, Tables } from '../infra/database/tables';

export interface FolderRecord {
  id: FolderId;
  name: string;
  qrCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Every folder query reaches the folders through the account's tables: the account id is a required argument. */
@Injectable()
export class FoldersRepository {
  constructor(private readonly database: Database) {}

  /** Folders of the account with the number of codes in each (counted through the account's own codes). */
  private withCounts(tables: AccountTables) {
    return tables
      .selectFrom('folders')
      .select(['folders.id', 'folders.name', 'folders.created_at', 'folders.updated_at'])
      .select((eb) =>
        eb
          .selectFrom('qr_codes')
          .select(eb.fn.countAll<bigint>().as('n'))
          .whereRef('qr_codes.folder_id', '=', 'folders.id')
          .whereRef('qr_codes.account_id', '=', 'folders.account_id')
          .as('qr_count'),
      );
  }

  async create(tx: Tables, accountId: AccountId, name: string): Promise<FolderRecord> {
    // One clock reading for both: the column default (the database's now()) would be read at another instant.
    const now = new Date();
    const row = await tx
      .forAccount(accountId)
      .insertInto('folders', [{ id: randomUUID() as FolderId, name, created_at: now, updated_at: now }])
      .returning(['id', 'name', 'created_at', 'updated_at'])
      .executeTakeFirstOrThrow();
    return { id: row.id, name: row.name, qrCount: 0, createdAt: row.created_at, updatedAt: row.updated_at };
  }

  async list(accountId: AccountId): Promise<FolderRecord[]> {
    const rows = await this.withCounts(this.database.read.forAccount(accountId)).orderBy('folders.name').orderBy('folders.id').execute();
    return rows.map(toRecord);
  }

  async find(accountId: AccountId, id: FolderId): Promise<FolderRecord | null> {
    const row = await this.withCounts(this.database.read.forAccount(accountId)).where('folders.id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** Which of `ids` are folders of the account. */
  async ownedAmong(accountId: AccountId, ids: FolderId[]): Promise<Set<FolderId>> {
    if (ids.length === 0) return new Set();
    const rows = await this.database.read.forAccount(accountId).selectFrom('folders').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((row) => row.id));
  }

  /** Renames the folder; returns its name before, or null when the account has no such folder. */
  async rename(tx: Tables, accountId: AccountId, id: FolderId, name: string): Promise<{ before: string } | null> {
    const folders = tx.forAccount(accountId);
    const current = await folders.selectFrom('folders').select('name').where('id', '=', id).forUpdate().executeTakeFirst();
    if (!current) return null;
    await folders.updateTable('folders').set({ name, updated_at: new Date() }).where('id', '=', id).execute();
    return { before: current.name };
  }

  /** Deletes the folder; its codes stay, moved out of it (the foreign key sets their folder_id null). Returns its name, or null. */
  async delete(tx: Tables, accountId: AccountId, id: FolderId): Promise<{ name: string } | null> {
    const deleted = await tx.forAccount(accountId).deleteFrom('folders').where('id', '=', id).returning('name').executeTakeFirst();
    return deleted ?? null;
  }
}

function toRecord(row: { id: FolderId; name: string; created_at: Date; updated_at: Date; qr_count: bigint | null }): FolderRecord {
  return { id: row.id, name: row.name, qrCount: Number(row.qr_count ?? 0), createdAt: row.created_at, updatedAt: row.updated_at };
}
