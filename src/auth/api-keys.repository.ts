import { Injectable } from '@nestjs/common';
import { PrismaService } from '../infra/database/prisma.service';
import { AccountId, asAccountId } from '../common/auth/account-id';

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const KEY_FIELDS = { id: true, accountId: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  async findActiveByHash(hash: string): Promise<{ id: string; accountId: AccountId; lastUsedAt: Date | null } | null> {
    const key = await this.prisma.apiKey.findFirst({
      where: { keyHash: hash, revokedAt: null },
      select: { id: true, accountId: true, lastUsedAt: true },
    });
    return key && { ...key, accountId: asAccountId(key.accountId) };
  }

  async touchLastUsed(id: string, at: Date): Promise<void> {
    await this.prisma.apiKey.update({ where: { id }, data: { lastUsedAt: at } });
  }

  /** Creates the key, and its account when none is given, in one transaction. */
  async create(input: { accountId?: string; name: string; prefix: string; hash: string }): Promise<ApiKeyRecord> {
    return this.prisma.$transaction(async (tx) => {
      const accountId = input.accountId ?? (await tx.account.create({ data: {} })).id;
      return tx.apiKey.create({
        data: { accountId, name: input.name, prefix: input.prefix, keyHash: input.hash },
        select: KEY_FIELDS,
      });
    });
  }

  async accountExists(accountId: string): Promise<boolean> {
    return (await this.prisma.account.count({ where: { id: accountId } })) > 0;
  }

  async list(): Promise<ApiKeyRecord[]> {
    return this.prisma.apiKey.findMany({ select: KEY_FIELDS, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  }

  /** Marks the key revoked; returns its hash (to drop from caches), or null when no unrevoked key has that id. */
  async revoke(id: string): Promise<string | null> {
    const rows = await this.prisma.$queryRaw<Array<{ key_hash: string }>>`
      UPDATE api_keys SET revoked_at = now() WHERE id = ${id}::uuid AND revoked_at IS NULL RETURNING key_hash`;
    return rows[0]?.key_hash ?? null;
  }

  async countActive(): Promise<number> {
    return this.prisma.apiKey.count({ where: { revokedAt: null } });
  }
}
