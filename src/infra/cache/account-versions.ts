import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CACHE, Cache } from './cache';

/** A version outlives the entries cached under it; when it expires anyway, a new one only costs misses. */
const VERSION_TTL_SECONDS = 24 * 3600;

const versionKey = (accountId: string) => `account-version:${accountId}`;

/**
 * A token per account that changes after every write to the account's codes, so results derived
 * from them (search totals and pages) can be cached under it and are never served after a change.
 * Tokens are random, not counters: a version key that was lost or evicted can never make old
 * entries valid again. A reader that took the version before a write stores its result under the
 * old token, which nobody reads once the write has replaced it (and a write replaces it before its
 * response, so a client always reads its own writes).
 */
@Injectable()
export class AccountVersions {
  constructor(@Inject(CACHE) private readonly cache: Cache) {}

  async current(accountId: string): Promise<string> {
    const stored = await this.cache.get(versionKey(accountId));
    if (stored) return stored.toString();
    return this.replace(accountId);
  }

  /**
   * Call after a write to the account's codes has committed. When the cache cannot take the new
   * token, entries of the old one expire by their own TTL.
   */
  async replace(accountId: string): Promise<string> {
    const version = randomUUID();
    await this.cache.set(versionKey(accountId), version, VERSION_TTL_SECONDS);
    return version;
  }
}
