import { errorChain } from './error-chain';

/**
 * The one rule for "the database is unavailable", answered 503 (API) or the unavailable page
 * (redirect host), never 500: the database cannot be reached, closed or reset the connection, ran
 * out of connections, is shutting down or starting, gave no answer within the budget, or aborted
 * a transaction that may simply be retried (deadlock, serialization). Errors arrive from pg, from
 * Prisma's adapter (which renames them) and from Prisma itself, so the rule looks at codes,
 * Prisma's error kinds and messages, through every `cause`.
 */
const UNAVAILABLE_CODES = new Set([
  // Node sockets
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // the link watchdog (pg-link-watchdog.ts)
  'EDBLINK',
  // PostgreSQL: connection exceptions (class 08), too many connections, shutdown and start-up,
  // statement timeout, lock not available, deadlock and serialization failures
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '08P01',
  '53300',
  '57P01',
  '57P02',
  '57P03',
  '57014',
  '55P03',
  '40001',
  '40P01',
  // Prisma: cannot reach, timed out, operations timed out, server closed the connection, pool timeout, transaction timed out
  'P1001',
  'P1002',
  'P1008',
  'P1017',
  'P2024',
  'P2028',
  'P2034',
]);

/** Prisma driver-adapter error kinds of the same cases. */
const UNAVAILABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TransactionWriteConflict']);

const UNAVAILABLE_MESSAGE = new RegExp(
  [
    'Code: `(08[0-9A-Z]{3}|53300|57P0[123]|57014|55P03|40001|40P01)`',
    'ECONNREFUSED',
    'ECONNRESET',
    'Connection terminated',
    'Server has closed the connection',
    'closed the connection unexpectedly',
    'timeout exceeded when trying to connect',
    "Can't reach database",
    'DatabaseNotReachable',
    'Connection refused',
    'Database link cut',
    'Query read timeout',
    'not queryable',
    'too many clients',
    'terminating connection',
    'the database system is (starting up|shutting down)',
    'canceling statement due to statement timeout',
    'Transaction already closed',
    'Unable to start a transaction in the given time',
    'timeout expired',
    'Connection terminated due to connection timeout',
  ].join('|'),
  'i',
);

export function isDatabaseUnavailable(error: unknown): boolean {
  return errorChain(error).some(
    (e) =>
      e.name === 'PrismaClientInitializationError' ||
      (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) ||
      (typeof e.kind === 'string' && UNAVAILABLE_KINDS.has(e.kind)) ||
      (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)),
  );
}
