import { BadRequestException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { AccountId } from '../common/auth/account-id';
import { generateApiKey, hashApiKey, looksLikeApiKey } from './api-key-format';
import { ApiKeyRecord, ApiKeysRepository } from './api-keys.repository';

/** last_used_at is written at most this often per key, so authentication stays a read. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface CreatedApiKey extends ApiKeyRecord {
  /** The plain key: returned once, never stored. */
  key: string;
}

@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger('ApiKeys');

  constructor(private readonly keys: ApiKeysRepository) {}

  /** The account of a valid, unrevoked key, or null. */
  async authenticate(rawKey: string): Promise<AccountId | null> {
    if (!looksLikeApiKey(rawKey)) return null;
    const key = await this.keys.findActiveByHash(hashApiKey(rawKey));
    if (!key) return null;
    const now = new Date();
    if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      this.keys.touchLastUsed(key.id, now).catch((error: Error) => this.logger.warn(`last_used_at not recorded: ${error.message}`));
    }
    return key.accountId;
  }

  async create(name: string, accountId?: string): Promise<CreatedApiKey> {
    if (accountId && !(await this.keys.accountExists(accountId))) {
      throw new BadRequestException(`account_id ${accountId} does not exist`);
    }
    const { key, prefix, hash } = generateApiKey();
    const record = await this.keys.create({ accountId, name, prefix, hash });
    return { ...record, key };
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.keys.list();
  }

  async revoke(id: string): Promise<void> {
    if (!(await this.keys.revoke(id))) throw new NotFoundException('API key not found');
  }

  /** First start: when no usable key exists, create an account and a key so the service can be tried at once. */
  async createFirstKeyIfNone(): Promise<CreatedApiKey | null> {
    if ((await this.keys.countActive()) > 0) return null;
    return this.create('first key');
  }
}
