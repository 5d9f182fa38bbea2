import type { IncomingMessage, RequestListener } from 'node:http';
import { type DomainHosts, hostnameOfHeader, type ServedDomain } from '../domains';
import { PAGE_CSP } from './landing/page-style';
import { UNAVAILABLE_PAGE } from './landing/status-pages';
import { REDIRECT_PATH_PREFIX } from './redirect-host';
import { SERVED_DOMAIN, type WithServedDomain } from './request-domain';

export interface HostDispatchOptions {
  /** TRUST_PROXY: with a trusted proxy in front, X-Forwarded-Host names the host (Caddy sets it). */
  trustProxy: number;
  /** The service's own hostnames (BASE_URL, REDIRECT_URL): never a branded domain. */
  ownHostnames: readonly string[];
}

/**
 * The hostname a request names: Host, or with a trusted proxy the last X-Forwarded-Host entry
 * (the one the nearest proxy wrote); null for anything that cannot be a branded domain.
 */
export function requestHostname(request: IncomingMessage, trustProxy: number): string | null {
  const forwarded = trustProxy > 0 ? request.headers['x-forwarded-host'] : undefined;
  if (typeof forwarded === 'string' && forwarded !== '') {
    const comma = forwarded.lastIndexOf(',');
    return hostnameOfHeader(comma < 0 ? forwarded : forwarded.slice(comma + 1).trim());
  }
  const host = request.headers.host;
  if (host === undefined) return null;
  // Every request asks this: a server sees few distinct Host headers, each read once.
  let hostname = hostnames.get(host);
  if (hostname === undefined) {
    hostname = hostnameOfHeader(host);
    if (hostnames.size >= MAX_REMEMBERED_HOSTS) hostnames.clear();
    hostnames.set(host, hostname);
  }
  return hostname;
}

/** Host headers remembered by requestHostname at most (then forgotten all at once: made-up hosts cannot grow it). */
const MAX_REMEMBERED_HOSTS = 1000;
const hostnames = new Map<string, string | null>();

/**
 * The server's first routing step (docs/domains-and-tls.md#on-the-domain): a request whose host is
 * a branded domain goes to the redirect host, whatever its path, with the domain on the request;
 * any other (the service's own hosts, addresses, unknown names) goes on to the API and /r/ as
 * before. Known hosts are answered synchronously from DomainHosts' near cache.
 */
export function dispatchByHost(domains: DomainHosts, toRedirectHost: RequestListener, options: HostDispatchOptions) {
  const own = new Set(options.ownHostnames);
  // One listener per domain object (a new object comes with each lookup): no closure per request.
  const listeners = new WeakMap<ServedDomain, RequestListener>();
  const listenerFor = (domain: ServedDomain | null): RequestListener | null => {
    if (!domain) return null;
    let listener = listeners.get(domain);
    if (!listener) {
      listener = (request, response) => {
        (request as WithServedDomain)[SERVED_DOMAIN] = domain;
        toRedirectHost(request, response);
      };
      listeners.set(domain, listener);
    }
    return listener;
  };
  return (request: IncomingMessage): RequestListener | null | Promise<RequestListener | null> => {
    const hostname = requestHostname(request, options.trustProxy);
    if (hostname === null || own.has(hostname)) return null;
    const known = domains.cached(hostname);
    if (known !== undefined) return listenerFor(known);
    // The database is unreachable: the host may be a customer's, so the API must not answer on it;
    // a scan (/r/) goes on as on the default host, whose links in memory keep answering in an outage.
    return domains.resolve(hostname).then(listenerFor, () => (request.url?.startsWith(REDIRECT_PATH_PREFIX) ? null : answerUnavailable));
  };
}

const answerUnavailable: RequestListener = (_request, response) => {
  response.writeHead(503, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'retry-after': '5',
  });
  response.end(UNAVAILABLE_PAGE);
};
