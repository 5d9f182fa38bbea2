import { Injectable } from '@nestjs/common';
import { type NearCache, NearCacheRegistry } from '../infra/cache/near-cache';
import { QrCodeEvents } from '../qrcodes/qr-code-events';
import type { LinkTarget } from './link-target';
import { LinksRepository } from './links.repository';

/** How long a resolved link may be served from memory without hearing of a change (backstop for missed invalidations). */
const LINK_TTL_MS = 30_000;
/** Unknown codes are remembered briefly so that a flood of bad links does not reach the database. */
const MISSING_TTL_MS = 5_000;

/**
 * Resolves short codes from an in-process near cache, so the redirect hot path normally makes no
 * database or Redis round trip. A change of a code (content, status, expiry, delete) drops its
 * link on every instance.
 */
@Injectable()
export class LinkResolver {
  private readonly links: NearCache<LinkTarget | null>;
  /** Lookups in flight: a burst of scans of a code not yet in memory makes one query, not one each. */
  private readonly resolving = new Map<string, Promise<LinkTarget | null>>();

  constructor(
    private readonly repository: LinksRepository,
    nearCaches: NearCacheRegistry,
    events: QrCodeEvents,
  ) {
    this.links = nearCaches.cache('links', { maxEntries: 100_000, ttlMs: LINK_TTL_MS });
    events.onCommitted(async (change) => {
      if (change.kind !== 'created' && change.shortCode) await this.links.invalidate(change.shortCode);
    });
  }

  /** The link if this instance has it in memory (null: known not to exist), undefined if it must be looked up (resolve). */
  cached(shortCode: string): LinkTarget | null | undefined {
    return this.links.get(shortCode);
  }

  resolve(shortCode: string): Promise<LinkTarget | null> {
    const cached = this.cached(shortCode);
    if (cached !== undefined) return Promise.resolve(cached);
    let lookup = this.resolving.get(shortCode);
    if (!lookup) {
      const lookedUpAt = this.links.mark();
      lookup = this.repository
        .findByShortCode(shortCode)
        .then((target) => {
          this.links.set(shortCode, target, target ? LINK_TTL_MS : MISSING_TTL_MS, lookedUpAt);
          return target;
        })
        .finally(() => this.resolving.delete(shortCode));
      this.resolving.set(shortCode, lookup);
    }
    return lookup;
  }
}
