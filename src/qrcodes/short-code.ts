import { randomBase62 } from '../common/random/base62';
import { isUniqueViolation } from '../infra/database/refused-data';

/**
 * Short codes of dynamic links: 8 base62 characters from the CSPRNG (~47.6 bits), never derived
 * from the id. Uniqueness is the database's unique index.
 */
export const SHORT_CODE_LENGTH = 8;
/** Any short code the redirect host may hold: generated ones and chosen (vanity) ones. */
export const SHORT_CODE_PATTERN = /^[0-9A-Za-z_-]{3,64}$/;

/**
 * Chosen (vanity) short codes: 3-64 characters of letters, digits, `_` and `-`, unique per host
 * (the default redirect host, or one domain), never a word the service's paths use.
 */
export const VANITY_SHORT_CODE_PATTERN = /^[0-9A-Za-z_-]{3,64}$/;
export const RESERVED_SHORT_CODES: readonly string[] = [
  'api',
  'docs',
  'docs-json',
  'health',
  'metrics',
  'internal',
  'admin',
  'static',
  'assets',
  'favicon',
  'robots',
  'well-known',
];

/** Why `shortCode` cannot be chosen (a message naming the field), or null. */
export function vanityShortCodeProblem(shortCode: string): string | null {
  if (!VANITY_SHORT_CODE_PATTERN.test(shortCode)) return 'short_code must be 3-64 characters of letters, digits, _ and -';
  if (RESERVED_SHORT_CODES.includes(shortCode.toLowerCase())) return `short_code "${shortCode}" is reserved`;
  return null;
}

/** A collision of 8 random base62 characters is rare; a handful of attempts makes a failure impossible in practice. */
const ATTEMPTS = 5;

export function generateShortCode(): string {
  return randomBase62(SHORT_CODE_LENGTH);
}

/**
 * The one way to store new short codes: runs `attempt` (a whole transaction) with fresh codes
 * from `next` until it does not collide with an existing one.
 */
export async function withFreshShortCodes<T>(attempt: (next: () => string) => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt(generateShortCode);
    } catch (error) {
      if (!isUniqueViolation(error) || tries >= ATTEMPTS) throw error;
    }
  }
}
