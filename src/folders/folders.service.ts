import { Injectable, NotFoundException } from '@nestjs/common';
import { AccountId } from '../common/auth/account-id';
import { AccountVersions } from '../infra/cache/account-versions';
import { FolderView } from './dto/folder.dto';
import { FolderRecord, FoldersRepository } from './folders.repository';

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
  ) {}

  async create(accountId: AccountId, name: string): Promise<FolderView> {
    return toView(await this.folders.create(accountId, name));
  }

  async list(accountId: AccountId): Promise<FolderView[]> {
    return (await this.folders.list(accountId)).map(toView);
  }

  async get(accountId: AccountId, id: string): Promise<FolderView> {
    return toView(orNotFound(await this.folders.find(accountId, id)));
  }

  async rename(accountId: AccountId, id: string, name: string): Promise<FolderView> {
    return toView(orNotFound(await this.folders.rename(accountId, id, name)));
  }

  async delete(accountId: AccountId, id: string): Promise<void> {
    if (!(await this.folders.delete(accountId, id))) throw folderNotFound();
    // Its codes moved out of the folder: cached searches filtered by it are stale.
    await this.versions.replace(accountId);
  }

  /** Whether the account owns the folder (codes may only be placed in their owner's folders). */
  owns(accountId: AccountId, id: string): Promise<boolean> {
    return this.folders.exists(accountId, id);
  }
}

const folderNotFound = () => new NotFoundException('Folder not found');
function orNotFound<T>(value: T | null): T {
  if (value === null) throw folderNotFound();
  return value;
}
