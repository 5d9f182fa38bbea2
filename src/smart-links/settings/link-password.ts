import { hash, verify } from '@node-rs/argon2';

/**
 * A link password's hash: argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane), ~20 ms of one
 * core; the password itself is never stored or logged. `Algorithm.Argon2id` is a const enum the
 * compiler cannot read across packages here, hence its value.
 */
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashLinkPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** Whether `password` is the one behind `passwordHash`; a malformed hash never matches. */
export async function linkPasswordMatches(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch (error) {
    if (error instanceof Error) return false;
    throw error;
  }
}
