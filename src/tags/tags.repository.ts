import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { TagId } from '../common/ids/resource-ids';
import { Database } from '../infra/database/database.service';
import type { Tables } from '../infra/database/tables';
import { tagKey } from './tag-names';

export interface TagRecord {
  id: TagId;
  name: string;
}

export interface TagWithCount extends TagRecord {
  /** codes carrying the tag (for a folder-restricted key: of its folders) */
  codes: number;
}

/** How many times names are looked up again when a tag is deleted under a write that wanted it (a rare race). */
const RESOLVE_ATTEMPTS = 3;

/**
 * The queries of tags (docs/tags-and-bulk-edits.md): the account's tags and their counts
 * (tag_code_counts, kept by triggers on qr_codes), names resolved to ids inside a code write's
 * transaction, and the tag writes that reach the codes (a merge, a delete).
 */
@Injectable()
export class TagsRepository {
  constructor(private readonly database: Database) {}

  /**
   * The account's tags by name, each with its count. The counts of a folder-restricted key are of
   * its folders only (tag_code_counts is narrowed by folder), and such a key sees only the tags on
   * its codes.
   */
  async list(accountId: AccountId): Promise<TagWithCount[]> {
    const account = this.database.read.forAccount(accountId);
    const [tags, counts] = await Promise.all([
      account
        .selectFrom('tags')
        .select(['id', 'name'])
        .orderBy(sql`lower(name)`)
        .orderBy('id')
        .execute(),
      account
        .selectFrom('tag_code_counts')
        .select(['tag_id', (eb) => eb.fn.sum<string>('n').as('codes')])
        .groupBy('tag_id')
        .execute(),
    ]);
    const byTag = new Map(counts.map((row) => [row.tag_id, Number(row.codes)]));
    const listed = tags.map((tag) => ({ id: tag.id, name: tag.name, codes: byTag.get(tag.id) ?? 0 }));
    return account.folderIds ? listed.filter((tag) => tag.codes > 0) : listed;
  }

  /** The tag of that name (in any case), or null. */
  async findByName(accountId: AccountId, name: string): Promise<TagRecord | null> {
    const row = await this.database.read
      .forAccount(accountId)
      .selectFrom('tags')
      .select(['id', 'name'])
      .where(sql<boolean>`lower(name) = lower(${name})`)
      .executeTakeFirst();
    return row ?? null;
  }

  /** The tags of these names (in any case, each with the name it was asked by), locked in id order until the transaction ends. */
  async lockByNames(tx: Tables, accountId: AccountId, names: readonly string[]): Promise<Array<TagRecord & { wanted: string }>> {
    return tx
      .forAccount(accountId)
      .selectFrom('tags')
      .innerJoin(sql<{ wanted: string }>`unnest(${names}::text[])`.as('w'), (join) => join.on(sql<boolean>`lower(tags.name) = lower(w)`))
      .select(['tags.id', 'tags.name', sql<string>`w`.as('wanted')])
      .orderBy('tags.id')
      .forUpdate()
      .execute();
  }

  /** How many of the account's codes carry the tag (for a restricted key: in its folders). */
  async count(accountId: AccountId, id: TagId): Promise<number> {
    const row = await this.database.read
      .forAccount(accountId)
      .selectFrom('tag_code_counts')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('n'), sql<string>`0`).as('codes'))
      .where('tag_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(row.codes);
  }

  /** A new tag; null when the account has one of that name already (in any case). */
  async insert(tx: Tables, accountId: AccountId, name: string): Promise<TagRecord | null> {
    const now = new Date();
    const row = await tx
      .forAccount(accountId)
      .insertInto('tags', [{ id: randomUUID() as TagId, name, created_at: now, updated_at: now }])
      .onConflict((conflict) => conflict.expression(sql`account_id, lower(name)`).doNothing())
      .returning(['id', 'name'])
      .executeTakeFirst();
    return row ?? null;
  }

  async rename(tx: Tables, accountId: AccountId, id: TagId, name: string): Promise<void> {
    await tx.forAccount(accountId).updateTable('tags').set({ name, updated_at: new Date() }).where('id', '=', id).execute();
  }

  /**
   * Moves every code of the account carrying `from` onto `into` (a code with both keeps `into` where
   * it was); returns how many codes changed. Whatever key asks, all folders: a tag is the account's.
   */
  async mergeCodes(tx: Tables, accountId: AccountId, from: TagId, into: TagId): Promise<number> {
    const result = await tx
      .forWholeAccount(accountId)
      .updateTable('qr_codes')
      .set({
        tag_ids: sql`CASE WHEN tag_ids @> ARRAY[${into}]::uuid[]
          THEN array_remove(tag_ids, ${from}::uuid) ELSE array_replace(tag_ids, ${from}::uuid, ${into}::uuid) END`,
        updated_at: new Date(),
      })
      .where(sql<boolean>`tag_ids @> ARRAY[${from}]::uuid[]`)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Takes the tag off every code of the account that carries it; returns how many. */
  async detach(tx: Tables, accountId: AccountId, id: TagId): Promise<number> {
    const result = await tx
      .forWholeAccount(accountId)
      .updateTable('qr_codes')
      .set({ tag_ids: sql`array_remove(tag_ids, ${id}::uuid)`, updated_at: new Date() })
      .where(sql<boolean>`tag_ids @> ARRAY[${id}]::uuid[]`)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async delete(tx: Tables, accountId: AccountId, id: TagId): Promise<void> {
    await tx.forAccount(accountId).deleteFrom('tags').where('id', '=', id).execute();
  }

  /**
   * The ids of `names` in the account, tags missing made now, in the caller's (a code write's)
   * transaction. The rows are share-locked until it ends, so a tag cannot be deleted or merged
   * away under the write; one deleted just before is made again.
   */
  async resolve(tx: Tables, accountId: AccountId, names: readonly string[]): Promise<Map<string, TagRecord>> {
    const found = new Map<string, TagRecord>();
    // One name per tag, as first written (a later name in another case is the same tag).
    const firsts = new Map<string, string>();
    for (const name of names) if (!firsts.has(tagKey(name))) firsts.set(tagKey(name), name);
    const wanted = [...firsts.values()];
    for (let attempt = 0; attempt < RESOLVE_ATTEMPTS && found.size < wanted.length; attempt++) {
      const missing = wanted.filter((name) => !found.has(tagKey(name)));
      const now = new Date();
      const account = tx.forAccount(accountId);
      await account
        .insertInto(
          'tags',
          missing.map((name) => ({ id: randomUUID() as TagId, name, created_at: now, updated_at: now })),
        )
        .onConflict((conflict) => conflict.expression(sql`account_id, lower(name)`).doNothing())
        .execute();
      // Matched by the database's lower() on both sides: the unique index's own notion of one name.
      const rows = await account
        .selectFrom('tags')
        .innerJoin(sql<{ wanted: string }>`unnest(${missing}::text[])`.as('w'), (join) => join.on(sql<boolean>`lower(tags.name) = lower(w)`))
        .select(['tags.id', 'tags.name', sql<string>`w`.as('wanted')])
        .forKeyShare()
        .execute();
      for (const row of rows) found.set(tagKey(row.wanted), { id: row.id, name: row.name });
    }
    if (found.size < wanted.length) throw new Error('Tags could not be resolved: they were deleted again and again meanwhile');
    return found;
  }
}
