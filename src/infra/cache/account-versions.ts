import { randomUUID } from 'node:crypto';
import type { Cache } from './cache';

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
export class AccountVersions {
  /**
   * Accounts whose new version could not be stored, until when: this instance caches nothing for
   * them meanwhile. Other instances may serve their old entries until those expire, the one
   * window left when the shared cache takes reads but fails a write.
   */
  private readonly unsettled = new Map<string, number>();

  /** entryTtlSeconds: the longest time anything is cached under a version. */
  constructor(
    private readonly cache: Cache,
    private readonly entryTtlSeconds: number,
  ) {}

  /** The account's version, or null when results of the account must not be cached now. */
  async current(accountId: string): Promise<string | null> {
    const until = this.unsettled.get(accountId);
    if (until !== undefined) {
      if (until > Date.now()) return null;
      this.unsettled.delete(accountId);
    }
    const stored = await this.cache.get(versionKey(accountId));
    if (stored) return stored.toString();
    const version = randomUUID();
    return (await this.cache.set(versionKey(accountId), version, VERSION_TTL_SECONDS)) ? version : null;
  }

  /** Call after a write to the account's codes has committed. */
  async replace(accountId: string): Promise<void> {
    if (await this.cache.set(versionKey(accountId), randomUUID(), VERSION_TTL_SECONDS)) return;
    this.unsettled.set(accountId, Date.now() + this.entryTtlSeconds * 1000);
  }
}
