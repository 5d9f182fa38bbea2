import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { TagId } from '../common/ids/resource-ids';
import { FieldConflictException } from '../common/validation/field-conflict.exception';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { AuditTrail } from '../infra/audit/audit-trail';
import { AccountVersions } from '../infra/cache/account-versions';
import { Database } from '../infra/database/database.service';
import type { Tables } from '../infra/database/tables';
import { restrictedFolders } from '../infra/http/request-context';
import type { TagView } from './dto/tag.dto';
import { checkTagName, tagKey } from './tag-names';
import { type TagRecord, TagsRepository } from './tags.repository';

const tagNotFound = () => new NotFoundException('Tag not found');

/**
 * Tags (docs/tags-and-bulk-edits.md): an account's labels of its codes. A rename onto another
 * tag's name merges the two (the codes carry the tag renamed onto); a delete takes the tag off
 * every code. Both reach codes in every folder, so a folder-restricted key may not make them.
 * Each is one audit entry (not one per code: the codes' own fields are unchanged).
 */
@Injectable()
export class TagsService {
  constructor(
    private readonly tags: TagsRepository,
    private readonly database: Database,
    private readonly audit: AuditTrail,
    private readonly versions: AccountVersions,
  ) {}

  async list(accountId: AccountId): Promise<TagView[]> {
    return (await this.tags.list(accountId)).map(({ name, codes }) => ({ name, codes }));
  }

  async create(accountId: AccountId, rawName: unknown): Promise<TagView> {
    const name = this.checkedName(rawName, 'name');
    await this.database.transaction(async (tx) => {
      const created = await this.tags.insert(tx, accountId, name);
      if (!created) throw new FieldConflictException([{ field: 'name', message: `a tag named "${name}" exists (names are compared without case)` }]);
      await this.audit.record(tx, { accountId, action: 'tag.create', resourceType: 'tag', resourceId: created.id, after: { name } });
    });
    return { name, codes: 0 };
  }

  /** Renames the tag; onto an existing tag's name, merges it into that tag. Answers the tag as it is then. */
  async rename(accountId: AccountId, currentName: string, rawName: unknown): Promise<TagView> {
    this.refuseRestricted(accountId, 'rename');
    const name = this.checkedName(rawName, 'name');
    const into = await this.database.transaction(async (tx) => {
      const locked = await this.lockNamed(tx, accountId, [currentName, name]);
      const tag = locked.get(tagKey(currentName));
      if (!tag) throw tagNotFound();
      const other = locked.get(tagKey(name));
      if (!other || other.id === tag.id) {
        await this.tags.rename(tx, accountId, tag.id, name);
        await this.audit.record(tx, {
          accountId,
          action: 'tag.update',
          resourceType: 'tag',
          resourceId: tag.id,
          before: { name: tag.name },
          after: { name },
        });
        return { id: tag.id, name };
      }
      const moved = await this.tags.mergeCodes(tx, accountId, tag.id, other.id);
      await this.tags.delete(tx, accountId, tag.id);
      await this.audit.record(tx, {
        accountId,
        action: 'tag.merge',
        resourceType: 'tag',
        resourceId: tag.id,
        before: { name: tag.name },
        after: { name: other.name, merged_into: other.id, codes: moved },
      });
      return other;
    });
    // The codes carrying each tag changed: results of tag filters kept for the account are stale.
    await this.versions.replace(accountId);
    return { name: into.name, codes: await this.tags.count(accountId, into.id) };
  }

  /** Takes the tag off every code and deletes it; answers how many codes carried it. */
  async delete(accountId: AccountId, name: string): Promise<number> {
    this.refuseRestricted(accountId, 'delete');
    const detached = await this.database.transaction(async (tx) => {
      const tag = (await this.lockNamed(tx, accountId, [name])).get(tagKey(name));
      if (!tag) throw tagNotFound();
      const codes = await this.tags.detach(tx, accountId, tag.id);
      await this.tags.delete(tx, accountId, tag.id);
      await this.audit.record(tx, { accountId, action: 'tag.delete', resourceType: 'tag', resourceId: tag.id, before: { name: tag.name, codes } });
      return codes;
    });
    await this.versions.replace(accountId);
    return detached;
  }

  /** The tag of that name as the request's key sees it (a folder-restricted key: only a tag on its codes), or a 404. */
  async visible(accountId: AccountId, name: string): Promise<TagRecord> {
    const tag = await this.tags.findByName(accountId, name);
    if (!tag || !(await this.isVisible(accountId, tag.id))) throw tagNotFound();
    return tag;
  }

  /** Whether the request's key sees the tag: every key of the account, a folder-restricted one only a tag on its codes. */
  async isVisible(accountId: AccountId, id: TagId): Promise<boolean> {
    return !restrictedFolders(accountId) || (await this.tags.count(accountId, id)) > 0;
  }

  /** The ids of a code's tag names, in their order, the tags missing made (in the code write's transaction). */
  async idsFor(tx: Tables, accountId: AccountId, names: readonly string[]): Promise<TagId[]> {
    if (names.length === 0) return [];
    const resolved = await this.tags.resolve(tx, accountId, names);
    return names.map((name) => resolved.get(tagKey(name))!.id);
  }

  /** The tags of these names locked for the transaction, by name key (one statement, in id order: no deadlock between two renames). */
  private async lockNamed(tx: Tables, accountId: AccountId, names: string[]): Promise<Map<string, TagRecord>> {
    const rows = await this.tags.lockByNames(tx, accountId, names);
    const byKey = new Map<string, TagRecord>();
    for (const name of names) {
      const row = rows.find((candidate) => candidate.wanted === name);
      if (row) byKey.set(tagKey(name), { id: row.id, name: row.name });
    }
    return byKey;
  }

  private checkedName(raw: unknown, field: string): string {
    const check = checkTagName(raw, field);
    if (!check.ok) throw new ValidationFailedException([check.error]);
    return check.name;
  }

  private refuseRestricted(accountId: AccountId, verb: string): void {
    if (restrictedFolders(accountId)) {
      throw new ForbiddenException(`This API key is limited to some folders: it cannot ${verb} tags, which label codes in every folder`);
    }
  }
}
