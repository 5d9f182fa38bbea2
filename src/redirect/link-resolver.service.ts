import { Injectable } from '@nestjs/common';
import { NearCache, NearCacheRegistry } from '../infra/cache/near-cache';
import type { LinkTarget } from './link-target';
import { LinksRepository } from './links.repository';

/** How long a resolved link may be served from memory without hearing of a change (backstop for missed invalidations). */
const LINK_TTL_MS = 30_000;
/** Unknown codes are remembered briefly so that a flood of bad links does not reach the database. */
const MISSING_TTL_MS = 5_000;

/**
 * Resolves short codes from an in-process near cache, so the redirect hot path normally makes no
 * database or Redis round trip. Updates and deletes invalidate the entry on every instance.
 */
@Injectable()
export class LinkResolver {
  private readonly links: NearCache<LinkTarget | null>;

  constructor(
    private readonly repository: LinksRepository,
    nearCaches: NearCacheRegistry,
  ) {
    this.links = nearCaches.cache('links', { maxEntries: 100_000, ttlMs: LINK_TTL_MS });
  }

  /** The link if this instance has it in memory (null: known not to exist), undefined if it must be looked up (resolve). */
  cached(shortCode: string): LinkTarget | null | undefined {
    return this.links.get(shortCode);
  }

  async resolve(shortCode: string): Promise<LinkTarget | null> {
    const cached = this.cached(shortCode);
    if (cached !== undefined) return cached;
    const target = await this.repository.findByShortCode(shortCode);
    this.links.set(shortCode, target, target ? LINK_TTL_MS : MISSING_TTL_MS);
    return target;
  }

  /** Call after any change of the code behind the short code (content, status, expiry, delete). */
  invalidate(shortCode: string): Promise<void> {
    return this.links.invalidate(shortCode);
  }
}
