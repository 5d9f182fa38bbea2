import { Injectable } from '@nestjs/common';
import { GeoLocator, type GeoPlace, type KnownAgent, KnownAgents, VisitorHasher } from '../scans';
import { type AgentTraits, AgentTraitsCache } from './settings/agent-traits';
import type { ScanFacts } from './settings/link-rules-evaluator';
import type { Visit } from './visit';

/**
 * How the facts of a visit are looked up: its place (once per visit, kept on it), its agent (bot
 * or not, remembered per user agent), its traits and its visitor hash. One per instance; the
 * redirect host's record step reads the same place and agent as the decision did.
 */
@Injectable()
export class VisitFactsReader {
  private readonly agents = new KnownAgents();
  private readonly traitsCache = new AgentTraitsCache();

  constructor(
    private readonly geo: GeoLocator,
    private readonly visitors: VisitorHasher,
  ) {}

  /** The facts of a visit for the rules, at `at` (the dry run asks for a time of its own). */
  factsOf(visit: Visit, at: number, scanCount?: number): ScanFacts {
    return new VisitFacts(visit, at, this, scanCount);
  }

  /**
   * Where a visit comes from (country, city; docs/scans-and-privacy.md#where-a-scan-comes-from),
   * looked up on first use and kept on the visit: a rule by country asks before the answer, the
   * scan's record after it reuses that lookup. Only the place is kept, never the address.
   */
  placeOf(visit: Visit): GeoPlace {
    return (visit.place ??= this.geo.locate(visit));
  }

  /** The visit's user agent as first seen, with its bot verdict; null: it sent none. */
  agentOf(visit: Visit): KnownAgent | null {
    return visit.userAgent ? this.agents.recognise(visit.userAgent) : null;
  }

  /** No user agent, or a bot's: answered, never counted against a limit. */
  isBot(visit: Visit): boolean {
    return visit.userAgent === null || this.agents.recognise(visit.userAgent).isBot;
  }

  traits(visit: Visit): AgentTraits {
    return this.traitsCache.of(visit.userAgent, this.isBot(visit));
  }

  visitorHash(visit: Visit, at: number): string {
    return this.visitors.hash(at, visit.ip, visit.userAgent);
  }
}

/**
 * The facts of one visit for the rules evaluator (ScanFacts): the country, the agent's traits and
 * the visitor hash are looked up only when a rule asks. One object per decided visit, with no
 * closures of its own: the decision runs on most scans of a link with rules.
 */
class VisitFacts implements ScanFacts {
  readonly query: Visit['query'];
  readonly acceptLanguage: string | null;
  private countryRead: string | null | undefined;

  constructor(
    private readonly visit: Visit,
    readonly at: number,
    private readonly reader: VisitFactsReader,
    readonly scanCount?: number,
  ) {
    this.query = visit.query;
    const header = visit.headers['accept-language'];
    this.acceptLanguage = (Array.isArray(header) ? header.join(', ') : header) ?? null;
  }

  get country(): string | null {
    if (this.countryRead === undefined) this.countryRead = this.reader.placeOf(this.visit).country;
    return this.countryRead;
  }

  traits(): AgentTraits {
    return this.reader.traits(this.visit);
  }

  visitorHash(): string {
    return this.reader.visitorHash(this.visit, this.at);
  }
}
