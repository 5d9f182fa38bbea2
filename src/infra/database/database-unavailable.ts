const UNAVAILABLE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'ECONNREFUSED', 'ETIMEDOUT', 'ECONNRESET', '57P01', '57P03']);

/** A database that cannot be reached (as opposed to a query that failed): answered 503, not 500. */
export function isDatabaseUnavailable(exception: unknown): boolean {
  const error = exception as { name?: string; code?: string; message?: string; cause?: unknown };
  if (!error || typeof error !== 'object') return false;
  if (error.name === 'PrismaClientInitializationError') return true;
  if (error.code && UNAVAILABLE_CODES.has(error.code)) return true;
  const message = error.message ?? '';
  if (/ECONNREFUSED|Connection terminated|timeout exceeded when trying to connect|Can't reach database|DatabaseNotReachable|Connection refused/i.test(message)) return true;
  return error.cause ? isDatabaseUnavailable(error.cause) : false;
}
