import { createHmac, hash } from 'node:crypto';

/**
 * Anonymised visitor id for unique-scan counts, under a key that changes every UTC day and derives
 * from a per-deployment secret. The raw IP is never stored, and hashes of different days cannot be
 * linked.
 */
export function dailyVisitorKey(secret: string, at: number): string {
  const day = new Date(at).toISOString().slice(0, 10);
  return createHmac('sha256', secret).update(day).digest('hex');
}

/**
 * SHA-256 of the day's secret key followed by IP and user agent, in one call: a keyed hash at a
 * quarter of an HMAC's cost on the redirect's hot path. Without the key the IP cannot be guessed
 * back from it (not even by trying every IPv4 address), and since no hash is ever checked as a
 * message authenticator, SHA-256's length extension gives nothing away.
 */
export function visitorHash(dailyKey: string, ip: string, userAgent: string | null): string {
  return hash('sha256', `${dailyKey}\n${ip}\n${userAgent ?? ''}`).slice(0, 32);
}
