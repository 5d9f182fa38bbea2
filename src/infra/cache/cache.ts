/**
 * The one cache interface of the app (rendered images, lookups). Implementations never throw:
 * a backend failure reads as a miss and a skipped write, so callers need no error handling.
 */
export interface Cache {
  get(key: string): Promise<Buffer | null>;
  /** Resolves to whether the value was stored (false when the backend failed). */
  set(key: string, value: Buffer | string, ttlSeconds: number): Promise<boolean>;
  delete(...keys: string[]): Promise<void>;
  /** Deletes every key starting with prefix (e.g. all cached sizes of one code). */
  deleteByPrefix(prefix: string): Promise<void>;
}

export const CACHE = Symbol('CACHE');
