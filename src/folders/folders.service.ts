import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { restrictedFolders } from '../infra/http/request-context';
import type { AccountId } from '../common/ids/account-id';
import type { FolderId } from '../common/ids/resource-ids';
import type { FieldError } from '../common/validation/field-error';
import { AuditTrail } from '../infra/audit/audit-trail';
import { AccountVersions } from '../infra/cache/account-versions';
import { Database } from '../infra/database/database.service';
import type { FolderView } from './dto/folder.dto';
import { type FolderRecord, FoldersRepository } from './folders.repository';

/** The error of a code placed in a folder that is not one of its account's. */
export const NOT_YOUR_FOLDER: FieldError = { field: 'folder_id', message: 'folder_id does not name one of your folders' };

const toView = (folder: FolderRecord): FolderView => ({
  id: folder.id,
  name: folder.name,
  qr_count: folder.qrCount,
  created_at: folder.createdAt.toISOString(),
  updated_at: folder.updatedAt.toISOString(),
});

@Injectable()
export class FoldersService {
  constructor(
    private readonly folders: FoldersRepository,
    private readonly versions: AccountVersions,
    private readonly database: Database,
    private readonly audit: AuditTrail,
  ) {}

  async create(accountId: AccountId, name: string): Promise<FolderView> {
    // A key limited to some folders could not see a folder it made (its queries show only its own).
    if (restrictedFolders(accountId)) throw new ForbiddenException('This API key is limited to some folders: it cannot create folders');
    const created = await this.database.transaction(async (tx) => {
      const folder = await this.folders.create(tx, accountId, name);
      await this.audit.record(tx, { accountId, action: 'folder.create', resourceType: 'folder', resourceId: folder.id, after: { name } });
      return folder;
    });
    return toView(created);
  }

  async list(accountId: AccountId): Promise<FolderView[]> {
    return (await this.folders.list(accountId)).map(toView);
  }

  async get(accountId: AccountId, id: FolderId): Promise<FolderView> {
    return toView(orNotFound(await this.folders.find(accountId, id)));
  }

  async rename(accountId: AccountId, id: FolderId, name: string): Promise<FolderView> {
    await this.database.transaction(async (tx) => {
      const renamed = orNotFound(await this.folders.rename(tx, accountId, id, name));
      await this.audit.record(tx, {
        accountId,
        action: 'folder.update',
        resourceType: 'folder',
        resourceId: id,
        before: { name: renamed.before },
        after: { name },
      });
    });
    return this.get(accountId, id);
  }

  async delete(accountId: AccountId, id: FolderId): Promise<void> {
    await this.database.transaction(async (tx) => {
      const deleted = orNotFound(await this.folders.delete(tx, accountId, id));
      await this.audit.record(tx, { accountId, action: 'folder.delete', resourceType: 'folder', resourceId: id, before: { name: deleted.name } });
    });
    // Its codes moved out of the folder: cached searches filtered by it are stale.
    await this.versions.replace(accountId);
  }

  /** Which of `ids` the account owns (codes may only be placed in their owner's folders). */
  ownedAmong(accountId: AccountId, ids: FolderId[]): Promise<Set<FolderId>> {
    return this.folders.ownedAmong(accountId, ids);
  }
}

const folderNotFound = () => new NotFoundException('Folder not found');
function orNotFound<T>(value: T | null): T {
  if (value === null) throw folderNotFound();
  return value;
}
