/**
 * The safety rules for a URL the service may send a scanner to (design §9a). Used to validate
 * url-type content and again by the redirect host before every redirect, so a stored target that
 * predates a rule change cannot slip through.
 */

export const MAX_URL_LENGTH = 2048;

const WEB_PROTOCOLS = new Set(['http:', 'https:']);

/** C0 controls and DEL: the URL parser silently drops tabs and line breaks, so `java\tscript:` would parse. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** Returns why `url` may not be a redirect target, as a phrase following the field name, or null when it may. */
export function redirectTargetProblem(url: string, ownHosts: string[] = []): string | null {
  if (typeof url !== 'string') return 'must be a string';
  const trimmed = url.trim();
  if (trimmed === '') return 'must not be empty';
  if (trimmed.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  if (CONTROL_CHARACTER.test(trimmed)) return 'must not contain control characters such as tabs or line breaks';

  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (!WEB_PROTOCOLS.has(parsed.protocol)) return 'must be an absolute http or https URL';
  if (parsed.username !== '' || parsed.password !== '') return 'must not contain a user name or password';
  if (parsed.hostname === '') return 'must name a host';
  if (ownHosts.some((ownHost) => isOwnHost(parsed, ownHost))) {
    return "must not point to this service's redirect host";
  }
  return null;
}

/**
 * Whether `target` is served by `ownHost` ("r.example.com", "localhost:3000" or a base URL).
 * An own host without a port stands for the default ports, so any port-less target on that
 * hostname matches, whatever its scheme: http there would only bounce to https and back here.
 */
function isOwnHost(target: URL, ownHost: string): boolean {
  const own = parseOwnHost(ownHost);
  if (own === null || withoutTrailingDot(target.hostname) !== own.hostname) return false;
  if (own.port === null) return target.port === '';
  return effectivePort(target) === own.port;
}

function parseOwnHost(ownHost: string): { hostname: string; port: number | null } | null {
  const withScheme = ownHost.includes('://') ? ownHost.trim() : `http://${ownHost.trim()}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return null;
  }
  // The parser drops a port equal to its scheme's default, so read an explicit port from the text.
  const authority = withScheme.slice(withScheme.indexOf('://') + 3).split(/[/?#]/, 1)[0];
  const explicitPort = (authority.startsWith('[') ? /\]:(\d+)$/ : /:(\d+)$/).exec(authority)?.[1];
  return {
    hostname: withoutTrailingDot(parsed.hostname),
    port: explicitPort !== undefined ? Number(explicitPort) : null,
  };
}

function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** `example.com.` and `example.com` name the same host. */
function withoutTrailingDot(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '');
}
