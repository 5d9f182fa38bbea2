import { BadRequestException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { AccountId } from '../common/auth/account-id';
import { NearCache, NearCacheRegistry } from '../infra/cache/near-cache';
import { generateApiKey, hashApiKey, looksLikeApiKey } from './api-key-format';
import { ApiKeyRecord, ApiKeysRepository } from './api-keys.repository';

/** last_used_at is written at most this often per key, so authentication stays a read. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Keys are remembered in memory this long; a revocation drops them at once on every instance. */
const KEY_CACHE_TTL_MS = 60_000;

interface KnownKey {
  id: string;
  accountId: AccountId;
}

export interface CreatedApiKey extends ApiKeyRecord {
  /** The plain key: returned once, never stored. */
  key: string;
}

@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger('ApiKeys');
  /** By key hash; null remembers an unknown key briefly. */
  private readonly known: NearCache<KnownKey | null>;
  /** When this process last wrote last_used_at, per key id. */
  private readonly lastTouched = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeysRepository,
    nearCaches: NearCacheRegistry,
  ) {
    this.known = nearCaches.cache('api-keys', { maxEntries: 10_000, ttlMs: KEY_CACHE_TTL_MS });
  }

  /** The account of a valid, unrevoked key, or null. */
  async authenticate(rawKey: string): Promise<AccountId | null> {
    if (!looksLikeApiKey(rawKey)) return null;
    const hash = hashApiKey(rawKey);
    let key = this.known.get(hash);
    if (key === undefined) {
      const found = await this.keys.findActiveByHash(hash);
      key = found && { id: found.id, accountId: found.accountId };
      this.known.set(hash, key, key ? KEY_CACHE_TTL_MS : 5_000);
      if (found?.lastUsedAt) this.lastTouched.set(found.id, found.lastUsedAt.getTime());
    }
    if (!key) return null;
    this.touch(key.id);
    return key.accountId;
  }

  private touch(id: string): void {
    const now = Date.now();
    if (now - (this.lastTouched.get(id) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastTouched.set(id, now);
    this.keys.touchLastUsed(id, new Date(now)).catch((error: Error) => this.logger.warn(`last_used_at not recorded: ${error.message}`));
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
    const hash = await this.keys.revoke(id);
    if (!hash) throw new NotFoundException('API key not found');
    await this.known.invalidate(hash);
  }

  /** First start: when no usable key exists, create an account and a key so the service can be tried at once. */
  async createFirstKeyIfNone(): Promise<CreatedApiKey | null> {
    if ((await this.keys.countActive()) > 0) return null;
    return this.create('first key');
  }
}
