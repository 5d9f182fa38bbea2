import { Inject, Injectable } from '@nestjs/common';
import { hash } from 'node:crypto';
import { AccountId } from '../common/ids/account-id';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AccountVersions } from '../infra/cache/account-versions';
import { CACHE, Cache } from '../infra/cache/cache';
import { MetricsService } from '../infra/observability/metrics.service';
import { restrictedFolders } from '../infra/http/request-context';
import { QrCodeEvents } from './qr-code-events';

/**
 * Results of searches of one account's codes (totals and page ids), kept under the account's
 * version (AccountVersions): exact, because any write to the account's codes replaces the version.
 * A search counts and ranks every match through the trigram index, thousands of rows for a term of
 * 1 % at a million codes, while paging through results, refreshing a list or polling it repeats the
 * same search. Only ids are kept: the rows themselves (scans, status) are always read fresh.
 */
@Injectable()
export class SearchResultCache {
  private readonly ttlSeconds: number;

  constructor(
    @Inject(CACHE) private readonly cache: Cache,
    private readonly versions: AccountVersions,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) config: AppConfig,
    events: QrCodeEvents,
  ) {
    this.ttlSeconds = config.searchCacheSeconds;
    // Any write of the account's codes makes every result kept for it stale.
    events.onCommitted((change) => this.versions.replace(change.accountId));
  }

  /** The results of one account as of now: remember(...) reads and writes under its current version. */
  async forAccount(accountId: AccountId): Promise<SearchResults> {
    const version = this.ttlSeconds === 0 ? null : await this.versions.current(accountId);
    if (version === null) return { remember: (_parts, compute) => compute() };
    // A folder-restricted key sees other results than the account's other keys (tables.ts).
    const folders = restrictedFolders(accountId);
    const scope = `search:${accountId}:${version}:${folders ? hash('sha1', [...folders].sort().join(','), 'base64url') : '*'}:`;
    return {
      remember: async <T>(parts: unknown[], compute: () => Promise<T>): Promise<T> => {
        const key = scope + hash('sha1', JSON.stringify(parts), 'base64url');
        const cached = await this.cache.get(key);
        if (cached) {
          this.metrics.searchCache.inc({ result: 'hit' });
          return JSON.parse(cached.toString()) as T;
        }
        this.metrics.searchCache.inc({ result: 'miss' });
        const value = await compute();
        await this.cache.set(key, JSON.stringify(value), this.ttlSeconds);
        return value;
      },
    };
  }
}

export interface SearchResults {
  /** The value stored for these parts under the account's current version, else computed and stored. */
  remember<T>(parts: unknown[], compute: () => Promise<T>): Promise<T>;
}
