import { type AgentTraitsCache, type AgentTraits } from '../qrcodes/smart-links/agent-traits';
import type { ScanFacts } from '../qrcodes/smart-links/link-rules-evaluator';

/** What the rules may ask of a visit, each computed only when asked (ScanFacts). */
export interface VisitFactSources {
  at: number;
  query: Readonly<Record<string, string | string[] | undefined>>;
  acceptLanguage: string | null;
  country: () => string | null;
  userAgent: string | null;
  isBot: () => boolean;
  visitorHash: () => string;
  scanCount?: number;
}

/** The facts of one visit for the rules evaluator: the country, the agent's traits and the visitor hash looked up lazily. */
export function visitFacts(sources: VisitFactSources, traits: AgentTraitsCache): ScanFacts {
  let country: string | null | undefined;
  return {
    at: sources.at,
    query: sources.query,
    acceptLanguage: sources.acceptLanguage,
    get country() {
      if (country === undefined) country = sources.country();
      return country;
    },
    traits: (): AgentTraits => traits.of(sources.userAgent, sources.isBot()),
    visitorHash: sources.visitorHash,
    scanCount: sources.scanCount,
  };
}
