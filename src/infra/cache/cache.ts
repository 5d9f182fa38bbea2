/**
 * The one cache interface of the app (rendered images, search results, versions). Implementations
 * never throw: a backend failure reads as a miss and a skipped write, so callers need no error
 * handling.
 */
export interface Cache {
  get(key: string): Promise<Buffer | null>;
  /** Resolves to whether the value was stored (false when the backend failed). */
  set(key: string, value: Buffer | string, ttlSeconds: number): Promise<boolean>;
  /**
   * A member of a group of entries that are dropped together (all cached sizes of one code's
   * image): `delete(group)` removes them all at once, without searching the key space.
   */
  getMember(group: string, member: string): Promise<Buffer | null>;
  /** Stores a member; the whole group lives `ttlSeconds` from its last write. */
  setMember(group: string, member: string, value: Buffer | string, ttlSeconds: number): Promise<boolean>;
  /** Deletes keys and groups. */
  delete(...keys: string[]): Promise<void>;
}

export const CACHE = Symbol('CACHE');
