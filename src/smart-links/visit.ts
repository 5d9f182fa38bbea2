import type { ServedDomain } from '../domains';
import type { GeoPlace } from '../scans';

/**
 * A request for a short link, as smart links read it: the redirect host builds one per request
 * (redirect-host.ts), the dry run simulates one (dry-run.service.ts).
 */
export interface Visit {
  shortCode: string;
  ip: string;
  /** The request's headers as they came (the trusted country header, Accept-Language, the password cookie); never stored. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The scanned URL's query (`/r/<code>?src=poster`): rules may ask for its parameters. */
  query: Readonly<Record<string, string | string[] | undefined>>;
  /** The path and query as requested: where the password form posts back to. */
  url: string;
  userAgent: string | null;
  referrer: string | null;
  /** HEAD requests (link checkers) are answered but not recorded. */
  countable: boolean;
  /** Where the visit comes from, once looked up (VisitFactsReader.placeOf): one lookup per scan, however many read it. */
  place?: GeoPlace;
  /** The branded domain the request came to; left out: the default redirect host. */
  domain?: ServedDomain;
}
