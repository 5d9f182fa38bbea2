import { randomBase62 } from '../common/random/base62';

/**
 * Short codes of dynamic links: 8 base62 characters from the CSPRNG (~47.6 bits), never derived
 * from the id. Uniqueness is the database's unique index; callers retry on a collision.
 */
export const SHORT_CODE_LENGTH = 8;
export const SHORT_CODE_PATTERN = /^[0-9A-Za-z]{7,16}$/;

export function generateShortCode(): string {
  return randomBase62(SHORT_CODE_LENGTH);
}
