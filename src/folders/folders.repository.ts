import { Injectable } from '@nestjs/common';
import { AccountId } from '../common/auth/account-id';
import { PrismaService } from '../infra/database/prisma.service';

export interface FolderRecord {
  id: string;
  name: string;
  qrCount: number;
  createdAt: Date;
  updatedAt: Date;
}

const WITH_COUNT = { id: true, name: true, createdAt: true, updatedAt: true, _count: { select: { qrCodes: true } } } as const;
type Row = { id: string; name: string; createdAt: Date; updatedAt: Date; _count: { qrCodes: number } };
const toRecord = ({ _count, ...row }: Row): FolderRecord => ({ ...row, qrCount: _count.qrCodes });

/** Every folder query is scoped to an account: the account id is a required argument. */
@Injectable()
export class FoldersRepository {
  constructor(private readonly prisma: PrismaService) {}

  async create(accountId: AccountId, name: string): Promise<FolderRecord> {
    return toRecord(await this.prisma.folder.create({ data: { accountId, name }, select: WITH_COUNT }));
  }

  async list(accountId: AccountId): Promise<FolderRecord[]> {
    const rows = await this.prisma.folder.findMany({ where: { accountId }, select: WITH_COUNT, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
    return rows.map(toRecord);
  }

  async find(accountId: AccountId, id: string): Promise<FolderRecord | null> {
    const row = await this.prisma.folder.findFirst({ where: { id, accountId }, select: WITH_COUNT });
    return row && toRecord(row);
  }

  async exists(accountId: AccountId, id: string): Promise<boolean> {
    return (await this.prisma.folder.count({ where: { id, accountId } })) === 1;
  }

  async rename(accountId: AccountId, id: string, name: string): Promise<FolderRecord | null> {
    const { count } = await this.prisma.folder.updateMany({ where: { id, accountId }, data: { name } });
    return count === 1 ? this.find(accountId, id) : null;
  }

  /** Deletes the folder; its codes stay, moved out of it (folder_id set null by the foreign key). */
  async delete(accountId: AccountId, id: string): Promise<boolean> {
    const { count } = await this.prisma.folder.deleteMany({ where: { id, accountId } });
    return count === 1;
  }
}
