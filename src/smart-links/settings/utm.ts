import { UTM_FIELDS, type Utm } from './link-settings';

/**
 * `url` with the code's UTM parameters added as `utm_<field>`, except those the URL carries already
 * (its own value wins: a target that names its campaign keeps it). The URL's own query is kept as
 * written (not re-encoded); the parameters go before any fragment.
 */
export function withUtm(url: string, utm: Utm | null): string {
  if (!utm) return url;
  const hashAt = url.indexOf('#');
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : url.slice(hashAt);
  const queryAt = base.indexOf('?');
  const present = new URLSearchParams(queryAt === -1 ? '' : base.slice(queryAt + 1));
  const added: string[] = [];
  for (const field of UTM_FIELDS) {
    const value = utm[field];
    if (value === undefined || present.has(`utm_${field}`)) continue;
    added.push(`utm_${field}=${encodeURIComponent(value)}`);
  }
  if (added.length === 0) return url;
  const separator = queryAt === -1 ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${added.join('&')}${fragment}`;
}
