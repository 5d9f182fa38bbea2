import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/**
 * Hostnames of branded domains, pure: the rule a hostname given to the API must pass, and the
 * reading of a request's Host header that the redirect host matches against them. Both end in the
 * same normal form: lower case, IDN labels in punycode, no trailing dot, no port.
 */

export const MAX_HOSTNAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** What a hostname may hold before IDN conversion: no space, slash, port, user info, query or bracket. */
const FORBIDDEN = /[\s/\\:@?#[\]%]/u;

export type HostnameCheck = { ok: true; hostname: string } | { ok: false; problem: string };

const refused = (problem: string): HostnameCheck => ({ ok: false, problem });

/**
 * The normal form of a hostname a client wants to add, or why it cannot be one (a phrase after
 * "hostname"). `ownHosts`: the service's own hostnames (BASE_URL, REDIRECT_URL), which are refused.
 */
export function normaliseHostname(input: unknown, ownHosts: readonly string[] = []): HostnameCheck {
  if (typeof input !== 'string') return refused('must be a string');
  if (input.length === 0) return refused('must not be empty');
  // Checked before conversion too: a very long name is refused without the work of converting it.
  if (input.length > MAX_HOSTNAME_LENGTH * 4) return refused(`must be at most ${MAX_HOSTNAME_LENGTH} characters`);
  if (input.includes(':') && !/^\[|^[0-9a-f:]+$/i.test(input)) return refused('must not include a port or a scheme');
  if (isIpLiteral(input)) return refused('must be a name, not an IP address');
  if (FORBIDDEN.test(input)) return refused('must be a bare hostname such as qr.example.com (no scheme, port, path or spaces)');
  const withoutDot = input.endsWith('.') ? input.slice(0, -1) : input;
  // domainToASCII lower-cases, applies IDNA mapping and punycode; it answers '' for what is no domain.
  const ascii = domainToASCII(withoutDot);
  if (ascii === '') return refused('is not a valid domain name');
  if (ascii.length > MAX_HOSTNAME_LENGTH) return refused(`must be at most ${MAX_HOSTNAME_LENGTH} characters`);
  if (isIpLiteral(ascii)) return refused('must be a name, not an IP address');
  const labels = ascii.split('.');
  if (labels.length < 2) return refused('must have at least two labels, such as qr.example.com');
  for (const label of labels) {
    if (label.length === 0) return refused('must not have empty labels');
    if (label.length > MAX_LABEL_LENGTH) return refused(`must have labels of at most ${MAX_LABEL_LENGTH} characters`);
    if (!LABEL.test(label)) return refused('may hold only letters, digits and inner hyphens in each label (no underscores)');
  }
  if (/^[0-9]+$/.test(labels[labels.length - 1])) return refused('must end in a name, not a number');
  if (labels[labels.length - 1] === 'localhost') return refused('must not be a localhost name');
  if (ownHosts.includes(ascii)) return refused("must not be this service's own host");
  return { ok: true, hostname: ascii };
}

function isIpLiteral(value: string): boolean {
  const bare = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
  return isIP(bare) !== 0;
}

/**
 * The hostname a request names in its Host header (or X-Forwarded-Host when the proxy is trusted),
 * in the normal form, or null when it names none that could be a branded domain (missing, an IP
 * literal, a single label such as `localhost` or a container name, or malformed). The port is
 * ignored. Cheap on the hot path: one pass of checks, no allocation beyond the lower-cased name.
 */
export function hostnameOfHeader(header: string | undefined): string | null {
  if (!header || header.length > MAX_HOSTNAME_LENGTH + 7) return null;
  if (header.charCodeAt(0) === 91 /* [ */) return null; // an IPv6 literal
  const colon = header.indexOf(':');
  let name = colon < 0 ? header : header.slice(0, colon);
  if (colon >= 0 && !/^:\d{1,5}$/.test(header.slice(colon))) return null;
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name.indexOf('.') < 0) return null;
  name = name.toLowerCase();
  if (!HEADER_HOSTNAME.test(name) || name.length > MAX_HOSTNAME_LENGTH) return null;
  // A dotted-decimal address is a literal, not a domain.
  if (/^[0-9.]+$/.test(name)) return null;
  return name;
}

/** A hostname in normal form as a Host header carries it: ASCII labels of letters, digits and hyphens. */
const HEADER_HOSTNAME = /^[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+$/;

/** The hostname of an origin (BASE_URL, REDIRECT_URL), lower case, or null. */
export function hostnameOfOrigin(origin: string): string | null {
  try {
    return new URL(origin).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}
