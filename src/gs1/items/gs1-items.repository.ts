import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../../common/ids/account-id';
import type { DomainId, Gs1ItemId } from '../../common/ids/resource-ids';
import { Database } from '../../infra/database/database.service';
import type { AccountTables, Tables } from '../../infra/database/tables';
import type { StoredLink } from './gs1-item-rules';

export interface Gs1ItemRecord {
  id: Gs1ItemId;
  accountId: AccountId;
  domainId: DomainId | null;
  /** the domain's hostname (null on the default host) */
  hostname: string | null;
  path: string;
  name: string | null;
  links: StoredLink[];
  /** non-bot resolutions stored (pending ones are the scan buffer's) */
  scans: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewGs1Item {
  domainId: DomainId | null;
  path: string;
  primaryAi: string;
  primaryValue: string;
  name: string | null;
  links: StoredLink[];
}

/** An item as the resolver reads it: its key path, name and links. */
export interface ResolvableItem {
  id: Gs1ItemId;
  accountId: AccountId;
  path: string;
  name: string | null;
  links: StoredLink[];
}

/**
 * All queries of GS1 items. An account's reads and writes go through its tables; the resolver's
 * lookup by host and path crosses accounts (`anyAccount`): a Digital Link URI is a public name.
 */
@Injectable()
export class Gs1ItemsRepository {
  constructor(private readonly database: Database) {}

  /** The account's items with their domains' hostnames (the domain joined on the same account). */
  private withHostnames(tables: AccountTables) {
    return tables
      .selectFrom('gs1_items')
      .leftJoin('domains', (join) => join.onRef('domains.id', '=', 'gs1_items.domain_id').onRef('domains.account_id', '=', 'gs1_items.account_id'))
      .select(['gs1_items.id', 'gs1_items.account_id', 'gs1_items.domain_id', 'gs1_items.path', 'gs1_items.name', 'gs1_items.links'])
      .select(['gs1_items.scans', 'gs1_items.created_at', 'gs1_items.updated_at', 'domains.hostname']);
  }

  async insert(tx: Tables, accountId: AccountId, item: NewGs1Item): Promise<Gs1ItemId> {
    const now = new Date();
    const id = randomUUID() as Gs1ItemId;
    await tx
      .forAccount(accountId)
      .insertInto('gs1_items', [
        {
          id,
          domain_id: item.domainId,
          path: item.path,
          primary_ai: item.primaryAi,
          primary_value: item.primaryValue,
          name: item.name,
          links: JSON.stringify(item.links),
          created_at: now,
          updated_at: now,
        },
      ])
      .execute();
    return id;
  }

  async find(accountId: AccountId, id: Gs1ItemId, tables: Tables = this.database.read): Promise<Gs1ItemRecord | null> {
    const row = await this.withHostnames(tables.forAccount(accountId)).where('gs1_items.id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async idAt(accountId: AccountId, domainId: DomainId | null, path: string): Promise<Gs1ItemId | null> {
    let query = this.database.read.forAccount(accountId).selectFrom('gs1_items').select('id').where('path', '=', path);
    query = domainId === null ? query.where('domain_id', 'is', null) : query.where('domain_id', '=', domainId);
    return (await query.executeTakeFirst())?.id ?? null;
  }

  async list(accountId: AccountId, filter: { primaryValue?: string; domainId?: DomainId }, page: number, limit: number) {
    const tables = this.database.read.forAccount(accountId);
    let query = this.withHostnames(tables);
    let count = tables.selectFrom('gs1_items').select((eb) => eb.fn.countAll<bigint>().as('n'));
    if (filter.primaryValue !== undefined) {
      query = query.where('gs1_items.primary_value', '=', filter.primaryValue);
      count = count.where('gs1_items.primary_value', '=', filter.primaryValue);
    }
    if (filter.domainId !== undefined) {
      query = query.where('gs1_items.domain_id', '=', filter.domainId);
      count = count.where('gs1_items.domain_id', '=', filter.domainId);
    }
    const [rows, total] = await Promise.all([
      query
        .orderBy('gs1_items.created_at', 'desc')
        .orderBy('gs1_items.id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      count.executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toRecord), total: Number(total.n) };
  }

  /** Replaces the name and links sent; returns the item before, or null when the account has no such item. */
  async update(
    tx: Tables,
    accountId: AccountId,
    id: Gs1ItemId,
    changes: { name?: string | null; links?: StoredLink[] },
  ): Promise<Gs1ItemRecord | null> {
    const before = await this.withHostnames(tx.forAccount(accountId)).where('gs1_items.id', '=', id).forUpdate('gs1_items').executeTakeFirst();
    if (!before) return null;
    await tx
      .forAccount(accountId)
      .updateTable('gs1_items')
      .set({
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.links !== undefined && { links: JSON.stringify(changes.links) }),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
    return toRecord(before);
  }

  async delete(tx: Tables, accountId: AccountId, id: Gs1ItemId): Promise<Gs1ItemRecord | null> {
    const before = await this.withHostnames(tx.forAccount(accountId)).where('gs1_items.id', '=', id).executeTakeFirst();
    if (!before) return null;
    await tx.forAccount(accountId).deleteFrom('gs1_items').where('id', '=', id).execute();
    return toRecord(before);
  }

  /** The items at these paths on a host (a domain, or null: the default host), of whichever account holds them. */
  async atPaths(domainId: DomainId | null, paths: readonly string[]): Promise<ResolvableItem[]> {
    let query = this.database.read.anyAccount
      .selectFrom('gs1_items')
      .select(['id', 'account_id', 'path', 'name', 'links'])
      .where('path', 'in', paths);
    query = domainId === null ? query.where('domain_id', 'is', null) : query.where('domain_id', '=', domainId);
    const rows = await query.execute();
    return rows.map((row) => ({
      id: row.id,
      accountId: row.account_id,
      path: row.path,
      name: row.name,
      links: row.links as StoredLink[],
    }));
  }
}

interface ItemRow {
  id: Gs1ItemId;
  account_id: AccountId;
  domain_id: DomainId | null;
  hostname: string | null;
  path: string;
  name: string | null;
  links: unknown;
  scans: bigint | number | string;
  created_at: Date;
  updated_at: Date;
}

function toRecord(row: ItemRow): Gs1ItemRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    domainId: row.domain_id,
    hostname: row.hostname,
    path: row.path,
    name: row.name,
    links: row.links as StoredLink[],
    scans: Number(row.scans),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
