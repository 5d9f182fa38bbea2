import { randomBase62 } from '../common/random/base62';
import { isUniqueViolation } from '../infra/database/refused-data';

/**
 * Short codes of dynamic links: 8 base62 characters from the CSPRNG (~47.6 bits), never derived
 * from the id. Uniqueness is the database's unique index.
 */
export const SHORT_CODE_LENGTH = 8;
export const SHORT_CODE_PATTERN = /^[0-9A-Za-z]{7,16}$/;

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
