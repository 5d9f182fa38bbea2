import { createHmac } from 'node:crypto';

/**
 * Anonymised visitor id for unique-scan counts: HMAC of IP and user agent under a key that changes
 * every UTC day and derives from a per-deployment secret. The raw IP is never stored, and hashes of
 * different days cannot be linked.
 */
export function dailyVisitorKey(secret: string, at: number): Buffer {
  const day = new Date(at).toISOString().slice(0, 10);
  return createHmac('sha256', secret).update(day).digest();
}

export function visitorHash(dailyKey: Buffer, ip: string, userAgent: string | null): string {
  return createHmac('sha256', dailyKey).update(`${ip}\n${userAgent ?? ''}`).digest('hex').slice(0, 32);
}
