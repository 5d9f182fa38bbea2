import { Injectable } from '@nestjs/common';
import type { DomainId } from '../common/ids/resource-ids';
import { DomainEvents } from '../domains';
import { type NearCache, NearCacheRegistry } from '../infra/cache/near-cache';
import { type QrCodeChanged, QrCodeEvents } from '../qrcodes/qr-code-events';
import { shortCodeKey } from '../qrcodes/qr-codes.repository';
import { SHORT_CODE_LENGTH } from '../qrcodes/short-code';
import type { LinkTarget } from './link-target';
import { LinksRepository } from './links.repository';

/** How long a loaded link may be served from memory without hearing of a change (backstop for missed invalidations). */
const LINK_TTL_MS = 30_000;
/** Unknown codes are remembered briefly so that a flood of bad links does not reach the database. */
const MISSING_TTL_MS = 5_000;

/** A generated short code's form: 8 base62 characters, drawn at random, so never asked for before its code exists. */
const GENERATED_FORM = new RegExp(`^[0-9A-Za-z]{${SHORT_CODE_LENGTH}}$`);

/**
 * The near-cache keys a change makes stale. A new code's key matters only if an instance remembers
 * it as missing (a vanity code scanned before it was made); a generated code's never is, and
 * dropping it would also drop the link its first scans just cached, when the invalidation comes
 * back from Redis after them.
 */
function staleKeys(change: QrCodeChanged): string[] {
  const codes =
    change.kind === 'created'
      ? change.codes.filter((code) => code.shortCode !== null && !GENERATED_FORM.test(code.shortCode))
      : change.kind === 'updated'
        ? [change.before, change.code]
        : [change.code];
  return [...new Set(codes.flatMap((code) => (code.shortCode ? [shortCodeKey(code.domainId, code.shortCode)] : [])))];
}

/**
 * Links by (host, short code) from an in-process near cache, so the redirect hot path
 * normally makes no database or Redis round trip. The key is the code's domain id (empty for the
 * default redirect host) and its short code (shortCodeKey). A change of a code (content, status,
 * expiry, domain, delete) drops its links on every instance, and so does the deletion of a domain
 * for the codes it moved to the default host.
 */
@Injectable()
export class LinkCache {
  private readonly links: NearCache<LinkTarget | null>;
  /** Lookups in flight: a burst of scans of a code not yet in memory makes one query, not one each. */
  private readonly loading = new Map<string, Promise<LinkTarget | null>>();

  constructor(
    private readonly repository: LinksRepository,
    nearCaches: NearCacheRegistry,
    events: QrCodeEvents,
    domainEvents: DomainEvents,
  ) {
    this.links = nearCaches.cache('links', { maxEntries: 100_000, ttlMs: LINK_TTL_MS });
    events.onCommitted(async (change) => {
      for (const key of staleKeys(change)) await this.links.invalidate(key);
    });
    domainEvents.onCommitted(async (change) => {
      if (change.kind === 'deleted') for (const code of change.moved) await this.links.invalidate(shortCodeKey(null, code.shortCode));
    });
  }

  /** The link if this instance has it in memory (null: known not to exist), undefined if it must be looked up (load). */
  cached(shortCode: string, domainId: DomainId | null = null): LinkTarget | null | undefined {
    return this.links.get(shortCodeKey(domainId, shortCode));
  }

  /** The link from memory, else from the database (one query per key however many scans wait for it). */
  load(shortCode: string, domainId: DomainId | null = null): Promise<LinkTarget | null> {
    const key = shortCodeKey(domainId, shortCode);
    const cached = this.links.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    let lookup = this.loading.get(key);
    if (!lookup) {
      const lookedUpAt = this.links.mark();
      lookup = this.repository
        .findByShortCode(shortCode, domainId)
        .then((target) => {
          this.links.set(key, target, target ? LINK_TTL_MS : MISSING_TTL_MS, lookedUpAt);
          return target;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, lookup);
    }
    return lookup;
  }
}
