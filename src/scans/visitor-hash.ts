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

const DAY_MS = 86_400_000;

/**
 * Visitor hashes under the deployment's secret, loaded once (`loadSecret`), with the key of each
 * scan's own UTC day. The scan buffer hashes a batch's scans as it writes the batch rather than
 * each redirect as it is answered: one SHA-256 between two requests' work cost a redirect several
 * times what the same hash costs among a batch of them (bench/README.md, "A scan's cost"). A scan's
 * IP waits in memory for its batch (up to a hand-on) and goes no further.
 */
export class VisitorHasher {
  private secret: string | null = null;
  private loading: Promise<void> | null = null;
  private day = Number.NaN;
  private dayKey = '';

  constructor(private readonly loadSecret: () => Promise<string>) {}

  /** A hasher whose secret is known already (tests and tools). */
  static withSecret(secret: string): VisitorHasher {
    const hasher = new VisitorHasher(() => Promise.resolve(secret));
    hasher.secret = secret;
    return hasher;
  }

  /** Resolves once the secret is loaded: loads it at the first call (a failed load is tried again at the next). */
  ready(): Promise<void> {
    if (this.secret !== null) return Promise.resolve();
    this.loading ??= this.loadSecret().then(
      (secret) => {
        this.secret = secret;
      },
      (error: unknown) => {
        this.loading = null;
        throw error;
      },
    );
    return this.loading;
  }

  /**
   * A key for another purpose derived from the same per-deployment secret (HMAC of `purpose`), so
   * the deployment keeps one secret; throws before `ready` resolved.
   */
  derivedKey(purpose: string): Buffer {
    if (this.secret === null) throw new Error('the secret behind visitor hashes is not loaded yet');
    return createHmac('sha256', this.secret).update(`derived:${purpose}`).digest();
  }

  /** The visitor hash of a scan at `at` (epoch ms); throws before `ready` resolved. */
  hash(at: number, ip: string, userAgent: string | null): string {
    if (this.secret === null) throw new Error('the secret behind visitor hashes is not loaded yet');
    const day = Math.floor(at / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.dayKey = dailyVisitorKey(this.secret, at);
    }
    return visitorHash(this.dayKey, ip, userAgent);
  }
}
