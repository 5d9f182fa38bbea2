import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { type AccountId, asAccountId } from '../common/ids/account-id';
import type { ApiKeyId } from '../common/ids/resource-ids';
import { NearCache, NearCacheRegistry } from '../infra/cache/near-cache';
import { generateApiKey, hashApiKey, looksLikeApiKey } from './api-key-format';
import { ApiKeyRecord, ApiKeysRepository } from './api-keys.repository';

/** last_used_at is written at most this often per key, so authentication stays a read. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Keys are remembered in memory this long; a revocation drops them at once on every instance. */
const KEY_CACHE_TTL_MS = 60_000;

interface KnownKey {
  id: ApiKeyId;
  accountId: AccountId;
}

export interface CreatedApiKey extends ApiKeyRecord {
  /** The plain key: returned once, never stored. */
  key: string;
}

/** Where an operator's key went: the account named, the only one, a new one (there was none), a new one asked for. */
export type OperatorAccount = 'given' | 'only' | 'new' | 'new-requested';

/** An operator's key without an account, with several accounts to choose from. */
export class SeveralAccountsError extends Error {
  constructor(readonly count: number) {
    super(`there are ${count} accounts`);
  }
}

@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger('ApiKeys');
  /** By key hash; null remembers an unknown key briefly. */
  private readonly known: NearCache<KnownKey | null>;
  /** When this process last wrote last_used_at, per key id. */
  private readonly lastTouched = new Map<ApiKeyId, number>();

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
      // A revocation racing this lookup must not leave the revoked key remembered as valid.
      const lookedUpAt = this.known.mark();
      const found = await this.keys.findActiveByHash(hash);
      key = found && { id: found.id, accountId: found.accountId };
      this.known.set(hash, key, key ? KEY_CACHE_TTL_MS : 5_000, lookedUpAt);
      if (found?.lastUsedAt) this.lastTouched.set(found.id, found.lastUsedAt.getTime());
    }
    if (!key) return null;
    this.touch(key.id);
    return key.accountId;
  }

  private touch(id: ApiKeyId): void {
    const now = Date.now();
    if (now - (this.lastTouched.get(id) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastTouched.set(id, now);
    this.keys.touchLastUsed(id, new Date(now)).catch((error: Error) => this.logger.warn(`last_used_at not recorded: ${error.message}`));
  }

  async create(name: string, accountId?: string | null): Promise<CreatedApiKey> {
    const account = accountId === undefined || accountId === null ? undefined : asAccountId(accountId.toLowerCase());
    if (account && !(await this.keys.accountExists(account))) {
      throw new ValidationFailedException([{ field: 'account_id', message: `account_id ${accountId} does not exist` }]);
    }
    const { key, prefix, hash } = generateApiKey();
    const record = await this.keys.create({ accountId: account, name, prefix, hash });
    return { ...record, key };
  }

  /**
   * An operator's key (the CLI). Named account: that one. Otherwise the key goes where a newcomer
   * expects it to see their codes: to the only account when there is exactly one, to a new account
   * when there is none or one is asked for; with several accounts there is no right guess, so it is
   * refused (SeveralAccountsError).
   */
  async createForOperator(
    name: string,
    choice: { accountId?: string; newAccount?: boolean },
  ): Promise<{ created: CreatedApiKey; account: OperatorAccount }> {
    if (choice.accountId !== undefined) return { created: await this.create(name, choice.accountId), account: 'given' };
    if (choice.newAccount) return { created: await this.create(name), account: 'new-requested' };
    const { count, oldest } = await this.keys.accountCount();
    if (count > 1) throw new SeveralAccountsError(count);
    if (oldest === null) return { created: await this.create(name), account: 'new' };
    return { created: await this.create(name, oldest), account: 'only' };
  }

  /** Every key (the CLI's list). */
  list(): Promise<ApiKeyRecord[]> {
    return this.keys.list();
  }

  /** One page of the keys, oldest first, and how many there are. */
  page(page: number, limit: number): Promise<{ keys: ApiKeyRecord[]; total: number }> {
    return this.keys.page(page, limit);
  }

  async revoke(id: ApiKeyId): Promise<void> {
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
