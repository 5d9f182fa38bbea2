import type { AgentTraits } from '../qrcodes/smart-links/agent-traits';
import type { ScanFacts } from '../qrcodes/smart-links/link-rules-evaluator';

/** What the facts read of a visit directly. */
export interface FactVisit {
  query: Readonly<Record<string, string | string[] | undefined>>;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** How the costlier facts of a visit are looked up (made once by their owner, not per visit). */
export interface VisitLookups<V extends FactVisit> {
  country(visit: V): string | null;
  traits(visit: V): AgentTraits;
  visitorHash(visit: V, at: number): string;
}

/**
 * The facts of one visit for the rules evaluator (ScanFacts): the country, the agent's traits and
 * the visitor hash are looked up only when a rule asks. One object per decided visit, with no
 * closures of its own: the decision runs on most scans of a link with rules.
 */
export class VisitFacts<V extends FactVisit> implements ScanFacts {
  readonly query: V['query'];
  readonly acceptLanguage: string | null;
  private countryRead: string | null | undefined;

  constructor(
    private readonly visit: V,
    readonly at: number,
    private readonly lookups: VisitLookups<V>,
    readonly scanCount?: number,
  ) {
    this.query = visit.query;
    const header = visit.headers['accept-language'];
    this.acceptLanguage = (Array.isArray(header) ? header.join(', ') : header) ?? null;
  }

  get country(): string | null {
    if (this.countryRead === undefined) this.countryRead = this.lookups.country(this.visit);
    return this.countryRead;
  }

  traits(): AgentTraits {
    return this.lookups.traits(this.visit);
  }

  visitorHash(): string {
    return this.lookups.visitorHash(this.visit, this.at);
  }
}
