/** Whether a database error is a unique-constraint violation (Prisma P2002 or Postgres 23505), through any wrapping. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error as { code?: unknown; cause?: unknown; meta?: { code?: unknown } } | undefined, depth = 0; current && depth < 5; depth++) {
    if (current.code === 'P2002' || current.code === '23505' || current.meta?.code === '23505') return true;
    if (typeof (current as { message?: unknown }).message === 'string' && /unique constraint|duplicate key value/i.test((current as { message: string }).message)) return true;
    current = current.cause as typeof current;
  }
  return false;
}
