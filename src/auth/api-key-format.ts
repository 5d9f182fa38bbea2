import { hash } from 'node:crypto';
import { randomBase62 } from '../common/random/base62';

/** API keys look like `qr_live_<40 base62 chars>`: ~238 bits from the CSPRNG. */
export const API_KEY_PREFIX = 'qr_live_';
const SECRET_LENGTH = 40;
const API_KEY_PATTERN = /^qr_live_[0-9A-Za-z]{32,64}$/;
/** Characters shown to identify a key in listings (`qr_live_AbCd`), never enough to use it. */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 4;

export interface NewApiKey {
  key: string;
  prefix: string;
  hash: string;
}

export function generateApiKey(): NewApiKey {
  const key = API_KEY_PREFIX + randomBase62(SECRET_LENGTH);
  return { key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

/** SHA-256 hex: keys are long random secrets, so a fast unsalted hash is safe and allows lookup by hash. */
export function hashApiKey(key: string): string {
  // One-shot hashing: a quarter of createHash's cost, and this runs on every API request.
  return hash('sha256', key);
}

export function looksLikeApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}
