import { Injectable } from '@nestjs/common';
import { DomainEvents } from './domain-events';
import { type NearCache, NearCacheRegistry } from '../infra/cache/near-cache';
import { DomainsRepository } from './domains.repository';
import type { ServedDomain } from './served-domain';

/** How long a known domain is served from memory without hearing of a change (backstop for missed invalidations). */
const DOMAIN_TTL_MS = 30_000;
/** Hosts that are no domain are remembered briefly: a flood of made-up Host headers reaches the database once per host. */
const UNKNOWN_TTL_MS = 5_000;

/**
 * Which branded domain a request's hostname is, from an in-process near cache (one database lookup
 * per hostname however many requests wait for it). A domain's verification, failing, new URLs or
 * deletion drops its hostname on every instance. The TLS ask endpoint answers from here too.
 */
@Injectable()
export class DomainHosts {
  private readonly hosts: NearCache<ServedDomain | null>;
  private readonly resolving = new Map<string, Promise<ServedDomain | null>>();

  constructor(
    private readonly repository: DomainsRepository,
    nearCaches: NearCacheRegistry,
    events: DomainEvents,
  ) {
    this.hosts = nearCaches.cache('domain-hosts', { maxEntries: 100_000, ttlMs: DOMAIN_TTL_MS });
    events.onCommitted((change) => this.hosts.invalidate(change.domain.hostname));
  }

  /** The domain if this instance has it in memory (null: known to be none), undefined if it must be looked up. */
  cached(hostname: string): ServedDomain | null | undefined {
    return this.hosts.get(hostname);
  }

  resolve(hostname: string): Promise<ServedDomain | null> {
    const cached = this.hosts.get(hostname);
    if (cached !== undefined) return Promise.resolve(cached);
    let lookup = this.resolving.get(hostname);
    if (!lookup) {
      const lookedUpAt = this.hosts.mark();
      lookup = this.repository
        .findServed(hostname)
        .then((domain) => {
          this.hosts.set(hostname, domain, domain ? DOMAIN_TTL_MS : UNKNOWN_TTL_MS, lookedUpAt);
          return domain;
        })
        .finally(() => this.resolving.delete(hostname));
      this.resolving.set(hostname, lookup);
    }
    return lookup;
  }
}
