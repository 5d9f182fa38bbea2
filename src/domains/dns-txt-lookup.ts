import { Inject, Injectable } from '@nestjs/common';
import { promises as dns } from 'node:dns';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** What a TXT lookup found: the records' values (chunks joined), none, or a failure of the lookup itself. */
export type TxtAnswer = { kind: 'found'; values: string[] } | { kind: 'none' } | { kind: 'failed'; reason: string };

/** CNAMEs followed by hand when a resolver answers a TXT query with the alias alone. */
const MAX_ALIAS_HOPS = 8;
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * TXT lookups for domain verification through Node's `dns.promises.Resolver`, on the servers of
 * DNS_RESOLVERS (the system's when unset), each bounded by DNS_TIMEOUT_MS whatever the resolver
 * does. A lookup makes a resolver of its own, so that one that times out can be cancelled alone.
 */
@Injectable()
export class DnsTxtLookup {
  private readonly servers: string[];
  private readonly timeoutMs: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.servers = config.domains.dnsResolvers;
    this.timeoutMs = config.domains.dnsTimeoutMs;
  }

  async txt(name: string): Promise<TxtAnswer> {
    // Two tries of half the budget each: a lost UDP packet is retried within the budget.
    const resolver = new dns.Resolver({ timeout: Math.max(50, Math.floor(this.timeoutMs / 2)), tries: 2 });
    if (this.servers.length > 0) resolver.setServers(this.servers);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<TxtAnswer>((resolve) => {
      timer = setTimeout(() => {
        resolver.cancel();
        resolve({ kind: 'failed', reason: `no answer within ${this.timeoutMs} ms` });
      }, this.timeoutMs);
    });
    try {
      return await Promise.race([this.follow(resolver, name), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async follow(resolver: dns.Resolver, name: string): Promise<TxtAnswer> {
    let current = name;
    for (let hop = 0; hop <= MAX_ALIAS_HOPS; hop++) {
      try {
        const records = await resolver.resolveTxt(current);
        return { kind: 'found', values: records.map((chunks) => chunks.join('')) };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? '';
        if (!NO_RECORD.has(code)) return { kind: 'failed', reason: code || (error as Error).message };
        const alias = await resolver.resolveCname(current).catch(() => [] as string[]);
        if (alias.length === 0) return { kind: 'none' };
        current = alias[0];
      }
    }
    return { kind: 'failed', reason: `more than ${MAX_ALIAS_HOPS} CNAMEs in a row` };
  }
}
