import { isIP } from 'node:net';

/**
 * The rules for a URL the service may send a scanner to (docs/api-keys-and-security.md): an
 * absolute http(s) URL without user name or password that does not lead back to the service, in
 * the WHATWG URL serialisation. Targets are normalised once, when stored, and the normal form is
 * what the redirect host sends: a punycode host and percent-encoded path, query and fragment, so
 * the Location header is always plain ASCII. The redirect host checks a stored target again when
 * it loads it, so a target stored under an older rule cannot slip through.
 */

export const MAX_URL_LENGTH = 2048;

const WEB_PROTOCOLS = new Set(['http:', 'https:']);

/** C0 controls and DEL: the URL parser silently drops tabs and line breaks, so `java\tscript:` would parse. */
// eslint-disable-next-line no-control-regex -- control characters are what this pattern finds
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
/** What a Location header may carry: printable ASCII without spaces. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** A host of the service itself, with the port it is reached on (null: the scheme's default ports). */
interface OwnHost {
  /** a lower-cased host name without a trailing dot, or 'loopback' for every name and address of this machine */
  host: string;
  port: number | null;
}

/** The hosts that reach the service itself (its redirect host and API origins), with their aliases. */
export type OwnHosts = readonly OwnHost[];

/**
 * Why a URL is not a redirect target, for machines (docs/abuse-handling.md#refusal-reasons): not a
 * usable URL at all, a scheme other than http(s), a user name or password, or one of the service's
 * own links. The destination policy (src/abuse/policy) adds the reasons of its own checks.
 */
export type TargetRefusalReason = 'invalid_url' | 'scheme' | 'credentials_in_url' | 'loop';

export type TargetCheck = { ok: true; href: string } | { ok: false; problem: string; reason: TargetRefusalReason };

/**
 * Every host that reaches the given origins (REDIRECT_URL, BASE_URL): a loopback origin stands for
 * every loopback alias on its port (localhost, *.localhost, 127.0.0.0/8, ::1, IPv4-mapped forms,
 * 0.0.0.0 and ::, which connect to this machine), a named host for itself.
 */
export function redirectHostAliases(origins: readonly string[]): OwnHosts {
  const hosts: OwnHost[] = [];
  for (const origin of origins) {
    const parsed = parseOrigin(origin);
    if (!parsed) continue;
    const host = isLoopback(parsed.host) ? 'loopback' : parsed.host;
    if (!hosts.some((known) => known.host === host && known.port === parsed.port)) hosts.push({ host, port: parsed.port });
  }
  return hosts;
}

/** The normal form of `url` as a redirect target, or why it cannot be one (a phrase following the field name). */
export function normaliseRedirectTarget(url: unknown, ownHosts: OwnHosts = []): TargetCheck {
  if (typeof url !== 'string') return refused('must be a string');
  // ASCII whitespace only, as the URL parser trims: a no-break space or BOM is part of the URL (and gets percent-encoded).
  const trimmed = url.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  if (trimmed === '') return refused('must not be empty');
  if (trimmed.length > MAX_URL_LENGTH) return refused(`must be at most ${MAX_URL_LENGTH} characters`);
  // A control character inside a scheme (`java\tscript:`) is a scheme trick, anywhere else a header injection attempt.
  if (CONTROL_CHARACTER.test(trimmed)) return refused('must not contain control characters such as tabs or line breaks', schemeTrick(trimmed));

  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return refused('must be an absolute http or https URL with a valid host', schemeTrick(trimmed));
  }
  if (!WEB_PROTOCOLS.has(parsed.protocol)) return refused('must be an absolute http or https URL with a valid host', 'scheme');
  if (parsed.username !== '' || parsed.password !== '') return refused('must not contain a user name or password', 'credentials_in_url');
  if (parsed.hostname === '') return refused('must name a host');
  if (ownHosts.some((own) => leadsTo(parsed, own))) return refused("must not point to this service's own links (a redirect loop)", 'loop');
  const href = parsed.href;
  if (href.length > MAX_URL_LENGTH) return refused(`must be at most ${MAX_URL_LENGTH} characters once normalised (${href.length})`);
  // The serialisation is ASCII by construction; anything else would be a parser surprise, not a target.
  if (!HEADER_SAFE.test(href)) return refused('cannot be written as a plain ASCII URL');
  return { ok: true, href };
}

/** Why `url` may not be a redirect target, or null when it may (the text page links URLs by the same rule). */
export function redirectTargetProblem(url: unknown, ownHosts: OwnHosts = []): string | null {
  const check = normaliseRedirectTarget(url, ownHosts);
  return check.ok ? null : check.problem;
}

const refused = (problem: string, reason: TargetRefusalReason = 'invalid_url'): TargetCheck => ({ ok: false, problem, reason });

/**
 * `scheme` when the text starts like a URL of a non-web scheme once control characters and
 * whitespace are dropped (`java\tscript:`, `data:`), else `invalid_url`: a client learns that the
 * scheme, not the spelling, is what is refused.
 */
function schemeTrick(text: string): TargetRefusalReason {
  // eslint-disable-next-line no-control-regex -- control characters are what is dropped
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text.replace(/[\u0000-\u0020\u007f]/g, ''))?.[1]?.toLowerCase();
  return scheme !== undefined && scheme !== 'http' && scheme !== 'https' ? 'scheme' : 'invalid_url';
}

function leadsTo(target: URL, own: OwnHost): boolean {
  const host = canonicalHost(target.hostname);
  const sameHost = own.host === 'loopback' ? isLoopback(host) : host === own.host;
  if (!sameHost) return false;
  // An own host without a port stands for the default ports, whatever the scheme: http there
  // would only bounce to https and back here.
  if (own.port === null) return target.port === '';
  return effectivePort(target) === own.port;
}

function parseOrigin(origin: string): OwnHost | null {
  const withScheme = origin.includes('://') ? origin.trim() : `http://${origin.trim()}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return null;
  }
  // The parser drops a port equal to its scheme's default, so read an explicit port from the text.
  const authority = withScheme.slice(withScheme.indexOf('://') + 3).split(/[/?#]/, 1)[0];
  const explicitPort = (authority.startsWith('[') ? /\]:(\d+)$/ : /:(\d+)$/).exec(authority)?.[1];
  return { host: canonicalHost(parsed.hostname), port: explicitPort !== undefined ? Number(explicitPort) : null };
}

function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * A host as compared here: lower case, no trailing dot, IPv6 without brackets, and an IPv6 address
 * that embeds an IPv4 one (::ffff:a.b.c.d, ::a.b.c.d) as that IPv4 address. The URL parser has
 * already turned numeric IPv4 forms (2130706433, 0x7f.1, 127.1) into dotted quads.
 */
function canonicalHost(hostname: string): string {
  const host = hostname
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1');
  // The parser prints IPv6 compressed and in hexadecimal: ::ffff:7f00:1 (mapped), ::7f00:1 (compatible).
  const embedded = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!embedded) return host;
  const high = parseInt(embedded[1], 16);
  const low = parseInt(embedded[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '0.0.0.0' || host === '::' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}
