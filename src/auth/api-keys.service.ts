import { HttpException, HttpStatus, Injectable, Logger, NotFoundException } from '@nestjs/common';
import type { KeyPrincipal } from '../common/auth/key-principal';
import { ANY_SCOPE, type GrantedScope, isGrantedScope, scopesBeyond } from '../common/auth/scopes';
import { type AccountId, asAccountId } from '../common/ids/account-id';
import type { ApiKeyId, FolderId } from '../common/ids/resource-ids';
import type { FieldError } from '../common/validation/field-error';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { NearCache, NearCacheRegistry } from '../infra/cache/near-cache';
import { generateApiKey, hashApiKey, looksLikeApiKey } from './api-key-format';
import { ApiKeyRecord, ApiKeysRepository } from './api-keys.repository';

/** last_used_at is written at most this often per key, so authentication stays a read. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Keys are remembered in memory this long; a revocation drops them at once on every instance. */
const KEY_CACHE_TTL_MS = 60_000;

export interface CreatedApiKey extends ApiKeyRecord {
  /** The plain key: returned once, never stored. */
  key: string;
}

/** What a new key may do: every scope and folder, never expiring, unless narrowed. */
export interface KeyGrant {
  scopes?: readonly string[];
  folderIds?: readonly FolderId[] | null;
  expiresAt?: Date | null;
}

/** A key that authenticated, or why not. */
export type Authentication = { ok: true; principal: KeyPrincipal } | { ok: false; reason: 'invalid' | 'expired' };

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
  private readonly known: NearCache<KeyPrincipal | null>;
  /** When this process last wrote last_used_at, per key id. */
  private readonly lastTouched = new Map<ApiKeyId, number>();

  constructor(
    private readonly keys: ApiKeysRepository,
    nearCaches: NearCacheRegistry,
  ) {
    this.known = nearCaches.cache('api-keys', { maxEntries: 10_000, ttlMs: KEY_CACHE_TTL_MS });
  }

  /** The key's principal if it is valid, unrevoked and unexpired. */
  async authenticate(rawKey: string, now = Date.now()): Promise<Authentication> {
    if (!looksLikeApiKey(rawKey)) return { ok: false, reason: 'invalid' };
    const hash = hashApiKey(rawKey);
    let key = this.known.get(hash);
    if (key === undefined) {
      // A revocation racing this lookup must not leave the revoked key remembered as valid.
      const lookedUpAt = this.known.mark();
      const found = await this.keys.findActiveByHash(hash);
      key = found && {
        keyId: found.id,
        keyPrefix: found.prefix,
        accountId: found.accountId,
        scopes: found.scopes,
        folderIds: found.folderIds,
        expiresAt: found.expiresAt?.getTime() ?? null,
      };
      this.known.set(hash, key, key ? KEY_CACHE_TTL_MS : 5_000, lookedUpAt);
      if (found?.lastUsedAt) this.lastTouched.set(found.id, found.lastUsedAt.getTime());
    }
    if (!key) return { ok: false, reason: 'invalid' };
    if (key.expiresAt !== null && key.expiresAt <= now) return { ok: false, reason: 'expired' };
    this.touch(key.keyId, now);
    return { ok: true, principal: key };
  }

  private touch(id: ApiKeyId, now: number): void {
    if (now - (this.lastTouched.get(id) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastTouched.set(id, now);
    this.keys.touchLastUsed(id, new Date(now)).catch((error: Error) => this.logger.warn(`last_used_at not recorded: ${error.message}`));
  }

  /** The operator's create (admin API, CLI): any scopes and folders of the account. */
  async create(name: string, accountId?: string | null, grant: KeyGrant = {}): Promise<CreatedApiKey> {
    const account = accountId === undefined || accountId === null ? undefined : asAccountId(accountId.toLowerCase());
    if (account && !(await this.keys.accountExists(account))) {
      throw new ValidationFailedException([{ field: 'account_id', message: `account_id ${accountId} does not exist` }]);
    }
    if (!account && grant.folderIds?.length) {
      throw new ValidationFailedException([{ field: 'folder_ids', message: 'folder_ids needs account_id: a new account has no folders' }]);
    }
    const checked = await this.checkGrant(account, grant);
    return this.insert(name, account, checked);
  }

  /**
   * A key's own create (self-service, `keys:write`): a key for its account that can do no more than
   * the grantor can (no scope, folder or lifetime beyond its own).
   */
  async createByKey(grantor: KeyPrincipal, name: string, grant: KeyGrant): Promise<CreatedApiKey> {
    const checked = await this.checkGrant(grantor.accountId, grant);
    const beyond: FieldError[] = [];
    const wider = scopesBeyond(grantor.scopes, checked.scopes);
    if (wider.length > 0) beyond.push({ field: 'scopes', message: `this key cannot grant scopes it does not hold: ${wider.join(', ')}` });
    if (grantor.folderIds && (!checked.folderIds || checked.folderIds.some((id) => !grantor.folderIds!.includes(id)))) {
      beyond.push({ field: 'folder_ids', message: 'this key is limited to folders: name some of them in folder_ids, and no others' });
    }
    const grantorExpiry = grantor.expiresAt;
    if (grantorExpiry !== null && (!checked.expiresAt || checked.expiresAt.getTime() > grantorExpiry)) {
      beyond.push({
        field: 'expires_at',
        message: `this key expires at ${new Date(grantorExpiry).toISOString()}: a key it creates must expire by then`,
      });
    }
    if (beyond.length > 0) throw new GrantRefused(beyond);
    return this.insert(name, grantor.accountId, checked);
  }

  private async insert(name: string, accountId: AccountId | undefined, grant: Required<KeyGrant>): Promise<CreatedApiKey> {
    const { key, prefix, hash } = generateApiKey();
    const record = await this.keys.create({
      accountId,
      name,
      prefix,
      hash,
      scopes: grant.scopes as GrantedScope[],
      folderIds: grant.folderIds,
      expiresAt: grant.expiresAt,
    });
    return { ...record, key };
  }

  /** Known scopes (deduplicated; `*` alone stands for all), folders of the account, a future expiry. */
  private async checkGrant(accountId: AccountId | undefined, grant: KeyGrant): Promise<Required<KeyGrant> & { scopes: GrantedScope[] }> {
    const errors: FieldError[] = [];
    const scopes = [...new Set(grant.scopes ?? [ANY_SCOPE])];
    scopes.forEach((scope, index) => {
      if (!isGrantedScope(scope))
        errors.push({ field: `scopes[${index}]`, message: `unknown scope ${JSON.stringify(scope)} (docs/api-keys-and-security.md#scopes)` });
    });
    if (scopes.length === 0) errors.push({ field: 'scopes', message: 'scopes must name at least one scope' });
    const folderIds = grant.folderIds && grant.folderIds.length > 0 ? [...new Set(grant.folderIds)] : null;
    if (grant.folderIds && grant.folderIds.length === 0)
      errors.push({ field: 'folder_ids', message: 'folder_ids must name at least one folder, or be left out' });
    if (folderIds && accountId) {
      const found = await this.keys.existingFolders(accountId, folderIds);
      folderIds.forEach((id, index) => {
        if (!found.has(id)) errors.push({ field: `folder_ids[${index}]`, message: `folder ${id} not found` });
      });
    }
    if (grant.expiresAt && grant.expiresAt.getTime() <= Date.now()) errors.push({ field: 'expires_at', message: 'expires_at must be in the future' });
    if (errors.length > 0) throw new ValidationFailedException(errors);
    return { scopes: scopes as GrantedScope[], folderIds, expiresAt: grant.expiresAt ?? null };
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
    grant: KeyGrant = {},
  ): Promise<{ created: CreatedApiKey; account: OperatorAccount }> {
    if (choice.accountId !== undefined) return { created: await this.create(name, choice.accountId, grant), account: 'given' };
    if (choice.newAccount) return { created: await this.create(name, undefined, grant), account: 'new-requested' };
    const { count, oldest } = await this.keys.accountCount();
    if (count > 1) throw new SeveralAccountsError(count);
    if (oldest === null) return { created: await this.create(name, undefined, grant), account: 'new' };
    return { created: await this.create(name, oldest, grant), account: 'only' };
  }

  /** Every key (the CLI's list). */
  list(): Promise<ApiKeyRecord[]> {
    return this.keys.list();
  }

  /** One page of the keys, oldest first, and how many there are. */
  page(page: number, limit: number): Promise<{ keys: ApiKeyRecord[]; total: number }> {
    return this.keys.page(page, limit);
  }

  /** One page of an account's keys, newest first (self-service). */
  pageOfAccount(accountId: AccountId, page: number, limit: number): Promise<{ keys: ApiKeyRecord[]; total: number }> {
    return this.keys.pageOfAccount(accountId, page, limit);
  }

  async revoke(id: ApiKeyId): Promise<void> {
    const hash = await this.keys.revoke(id);
    if (!hash) throw new NotFoundException('API key not found');
    await this.known.invalidate(hash);
  }

  /** A key's own revoke (self-service): any key of its account but the last one that can manage keys. */
  async revokeByKey(principal: KeyPrincipal, id: ApiKeyId): Promise<void> {
    const result = await this.keys.revokeOfAccount(principal.accountId, id, new Date());
    if (result === null) throw new NotFoundException('API key not found');
    if (result === 'last') {
      throw new ValidationFailedException([
        { field: 'id', message: "this is the account's last key that can manage keys (keys:write, every folder, unexpired): create another first" },
      ]);
    }
    await this.known.invalidate(result.hash);
  }

  /** First start: when no usable key exists, create an account and a key so the service can be tried at once. */
  async createFirstKeyIfNone(): Promise<CreatedApiKey | null> {
    if ((await this.keys.countActive()) > 0) return null;
    return this.create('first key');
  }
}

/** 403 naming each field of a grant beyond the grantor's own (the error filter renders `errors`). */
export class GrantRefused extends HttpException {
  constructor(readonly fieldErrors: FieldError[]) {
    super(`A key cannot grant more than it holds: ${fieldErrors.map((error) => error.field).join(', ')}`, HttpStatus.FORBIDDEN);
  }
}
