/**
 * A host and each parent domain, longest first: `a.b.example` → `a.b.example`, `b.example`,
 * `example`. An IP address is only itself. `host` is lower-case ASCII without a trailing dot.
 */
export function hostAndParents(host: string): string[] {
  if (host.includes(':') || /^\d+(\.\d+){3}$/.test(host)) return [host];
  const labels = host.split('.');
  return labels.map((_label, index) => labels.slice(index).join('.'));
}

/**
 * A host as the abuse checks compare it: lower case, without a trailing dot, IPv6 without
 * brackets. The URL parser has already made it ASCII (punycode) and lower case.
 */
export function comparableHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/\.+$/, '')
    .replace(/^\[(.*)\]$/, '$1');
}
