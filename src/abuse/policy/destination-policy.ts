import { isIP } from 'node:net';
import { addressRefusal } from '../../common/web/address-policy';
import { normaliseRedirectTarget, type OwnHosts, type TargetRefusalReason } from '../../common/web/redirect-target';
import { describeKey, lookupKeys, type ThreatKey, type ThreatKeySet, type ThreatMatch } from '../feeds/threat-keys';
import { comparableHost } from '../host-suffixes';
import { mixedScriptLabel, unicodeHost } from './host-scripts';
import { assessRisk, type RiskAssessment } from './risk-score';
import { shortenerOf } from './url-shorteners';

/**
 * The destination policy (docs/abuse-handling.md#what-is-checked): the one rule for every URL a
 * code may send a scanner to. In two pure steps, so that what needs the database is asked once
 * for a whole request:
 *
 * 1. `screenDestination`: what the URL alone tells (its form, scheme, credentials, loops to the
 *    service's own hosts, private addresses, mixed-script hosts, URL shorteners) and its risk;
 * 2. `judgeDestination`: what the stores tell of the screened URL (a verified branded domain of
 *    any account: a loop; a threat feed or the operator's blocked destinations: blocked).
 */

export type DestinationRefusalReason = TargetRefusalReason | 'private_address' | 'redirect_chain' | 'confusable_host' | 'destination_blocked';

export const DESTINATION_REFUSAL_REASONS: readonly DestinationRefusalReason[] = [
  'invalid_url',
  'scheme',
  'credentials_in_url',
  'private_address',
  'loop',
  'redirect_chain',
  'confusable_host',
  'destination_blocked',
];

export interface DestinationRefusal {
  reason: DestinationRefusalReason;
  /** a phrase following the field name: `content.url <problem>` */
  problem: string;
  /** the feed that lists the destination (destination_blocked) */
  feed?: string;
}

export interface DestinationPolicy {
  /** the service's own hosts (REDIRECT_URL, BASE_URL and their aliases) */
  ownHosts: OwnHosts;
  /** ALLOW_REDIRECT_CHAINS: URL shorteners are ordinary destinations */
  allowRedirectChains: boolean;
  /** THREAT_ALLOWLIST: no feed blocks what it covers, and it carries no risk */
  allowlist: ThreatKeySet;
}

export interface ScreenedDestination {
  /** the normal form, as stored and redirected to */
  href: string;
  /** the host as compared (comparableHost): a branded domain there would be a loop */
  host: string;
  /** whether a port other than the scheme's default is named (a branded domain is served on the default ports) */
  defaultPort: boolean;
  risk: RiskAssessment;
  /** the keys to look up in the threat feeds: the URL's, then those of URLs its query carries; none when allowlisted */
  threatKeys: ThreatKey[];
}

export type Screening = { ok: true; destination: ScreenedDestination } | { ok: false; refusal: DestinationRefusal };

/** A query parameter that carries another URL is looked into this many levels deep (an open redirect inside an open redirect). */
const NESTED_DEPTH = 2;
const NESTED_PER_LEVEL = 10;

export function screenDestination(input: unknown, policy: DestinationPolicy): Screening {
  const target = normaliseRedirectTarget(input, policy.ownHosts);
  if (!target.ok) return refused(target.reason, target.problem);
  const url = new URL(target.href);
  const host = comparableHost(url.hostname);
  const privateProblem = privateHostProblem(host);
  if (privateProblem) return refused('private_address', privateProblem);
  const mixed = mixedScriptLabel(host);
  if (mixed !== null) {
    return refused('confusable_host', `must not name a host whose label "${mixed}" mixes writing systems (a lookalike of another name)`);
  }
  const shortener = policy.allowRedirectChains ? null : shortenerOf(host);
  if (shortener !== null) {
    return refused('redirect_chain', `must not be a link of the URL shortener ${shortener}: link to the final destination instead`);
  }
  const nested = nestedUrls(url, NESTED_DEPTH);
  const allowlisted = policy.allowlist.match(lookupKeys(url)) !== null;
  const risk = allowlisted ? { score: 0, findings: [] } : assessRisk({ url, host, unicodeHost: unicodeHost(host), carriesUrl: nested.length > 0 });
  const threatKeys = [url, ...nested].filter((each) => !policy.allowlist.match(lookupKeys(each))).flatMap(lookupKeys);
  return {
    ok: true,
    destination: { href: target.href, host, defaultPort: url.port === '', risk, threatKeys: allowlisted ? [] : threatKeys },
  };
}

/** What the stores know of screened destinations. */
export interface DestinationLookups {
  /** hostnames of verified branded domains (of any account) among the screened hosts */
  servedHosts: ReadonlySet<string>;
  /** the first feed entry among a destination's keys (in their order), or null */
  threatOf: (keys: readonly ThreatKey[]) => ThreatMatch | null;
}

export type Judgement = { ok: true; href: string; risk: number } | { ok: false; refusal: DestinationRefusal };

export function judgeDestination(screened: ScreenedDestination, lookups: DestinationLookups): Judgement {
  if (screened.defaultPort && lookups.servedHosts.has(screened.host)) {
    return refused('loop', `must not point to ${screened.host}, a branded domain this service serves (a redirect loop)`);
  }
  const threat = lookups.threatOf(screened.threatKeys);
  if (threat) {
    return {
      ok: false,
      refusal: {
        reason: 'destination_blocked',
        problem: `is blocked: the threat feed "${threat.feed}" lists ${describeKey(threat.key)}`,
        feed: threat.feed,
      },
    };
  }
  return { ok: true, href: screened.href, risk: screened.risk.score };
}

const refused = (reason: DestinationRefusalReason, problem: string): { ok: false; refusal: DestinationRefusal } => ({
  ok: false,
  refusal: { reason, problem },
});

/** Names that only resolve inside a network or on the machine itself (RFC 6761, RFC 8375, mDNS, ICANN's .internal). */
const PRIVATE_NAME = /(^|\.)(localhost|local|internal|home\.arpa|lan)$/;

function privateHostProblem(host: string): string | null {
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(host);
    return refusal === null ? null : `must not point to a private or reserved network address (${refusal})`;
  }
  if (PRIVATE_NAME.test(host)) return `must not point to ${host}, a name of a private network`;
  if (!host.includes('.')) return `must not point to ${host}, a single-label name that only resolves inside a private network`;
  return null;
}

/** Absolute http(s) URLs carried as query parameter values (`?next=https://…`), down to `depth` levels. */
function nestedUrls(url: URL, depth: number): URL[] {
  if (depth === 0) return [];
  const found: URL[] = [];
  for (const value of url.searchParams.values()) {
    if (found.length >= NESTED_PER_LEVEL) break;
    if (!/^\s*https?:/i.test(value)) continue;
    const inner = normaliseRedirectTarget(value);
    if (inner.ok) found.push(new URL(inner.href));
  }
  return [...found, ...found.flatMap((inner) => nestedUrls(inner, depth - 1))];
}
