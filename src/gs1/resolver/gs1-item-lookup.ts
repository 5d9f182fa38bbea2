import { Injectable } from '@nestjs/common';
import type { DomainId } from '../../common/ids/resource-ids';
import { type NearCache, NearCacheRegistry } from '../../infra/cache/near-cache';
import { keyPath, type Gs1Key, keyLevels } from '../syntax/digital-link-key';
import { toGs1Link } from '../items/gs1-item-rules';
import { Gs1ItemsRepository, type ResolvableItem } from '../items/gs1-items.repository';
import type { ItemLevel } from './gs1-link';

/** A resolvable item as kept in memory: its levels' links already in the resolver's shape. */
export interface KeptItem {
  item: ResolvableItem;
  level: ItemLevel;
}

/** How long an item is served from memory without hearing of a change (the backstop of a missed invalidation). */
const ITEM_TTL_MS = 30_000;
/** Paths with no item are remembered briefly: a flood of made-up serials reaches the database once per path and window. */
const ABSENT_TTL_MS = 5_000;

/**
 * The items of a key's levels on a host, from an in-process near cache (invalidated on every
 * instance when an item changes), so that a resolution of a known item reads no database.
 */
@Injectable()
export class Gs1ItemLookup {
  private readonly items: NearCache<KeptItem | null>;

  constructor(
    private readonly repository: Gs1ItemsRepository,
    nearCaches: NearCacheRegistry,
  ) {
    this.items = nearCaches.cache('gs1-items', { maxEntries: 200_000, ttlMs: ITEM_TTL_MS });
  }

  /** The items at the key's levels, most specific first (levels without an item left out). */
  levels(domainId: DomainId | null, key: Gs1Key): FoundLevels | Promise<FoundLevels> {
    const keys = keyLevels(key).map((level) => cacheKey(domainId, keyPath(level)));
    const seen = keys.map((entry) => this.items.get(entry));
    if (seen.every((entry) => entry !== undefined)) return found(keys, seen);
    return this.lookUp(domainId, key, keys);
  }

  /**
   * Whether every level `found` was read from is still in memory as it was (the same entries: none
   * changed, was invalidated or expired), so that what was decided from them still holds.
   */
  unchanged(found: FoundLevels): boolean {
    for (let i = 0; i < found.keys.length; i++) if (this.items.get(found.keys[i]) !== found.seen[i]) return false;
    return true;
  }

  private async lookUp(domainId: DomainId | null, key: Gs1Key, keys: string[]): Promise<FoundLevels> {
    const mark = this.items.mark();
    const levels = keyLevels(key);
    const paths = levels.map(keyPath);
    const rows = new Map((await this.repository.atPaths(domainId, paths)).map((item) => [item.path, item]));
    const seen = paths.map((path, i) => {
      const item = rows.get(path);
      const kept = item ? { item, level: { key: levels[i], name: item.name, links: item.links.map(toGs1Link) } } : null;
      this.items.set(keys[i], kept, kept ? ITEM_TTL_MS : ABSENT_TTL_MS, mark);
      return kept;
    });
    return found(keys, seen);
  }

  /** Drops an item's path on its host, here and on every other instance. */
  forget(domainId: DomainId | null, path: string): Promise<void> {
    return this.items.invalidate(cacheKey(domainId, path));
  }
}

const cacheKey = (domainId: DomainId | null, path: string) => `${domainId ?? ''} ${path}`;

/** A key's levels as read: the items found (most specific first), and what each level's entry was. */
export interface FoundLevels {
  items: KeptItem[];
  keys: readonly string[];
  seen: ReadonlyArray<KeptItem | null | undefined>;
}

const found = (keys: string[], seen: Array<KeptItem | null>): FoundLevels => ({
  items: seen.filter((entry): entry is KeptItem => entry !== null),
  keys,
  seen,
});
