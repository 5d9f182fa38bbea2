import { errorChain, type ErrorLike } from './error-chain';

/**
 * Errors of statements the database refused for their data, recognised however they arrive: from
 * pg (SQLSTATE `code`), from Prisma's adapter (`kind`) or from Prisma itself (P2002, P2003, or the
 * SQLSTATE in the message of a failed raw query).
 */
const someLink = (error: unknown, test: (link: ErrorLike) => boolean) => errorChain(error).some(test);
const sqlState = (link: ErrorLike) => (typeof link.message === 'string' ? /Code: `([0-9A-Z]{5})`/.exec(link.message)?.[1] : undefined);

/** A unique-constraint violation (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return someLink(error, (e) => e.code === '23505' || e.code === 'P2002' || e.kind === 'UniqueConstraintViolation' || sqlState(e) === '23505');
}

/** A foreign-key violation (SQLSTATE 23503): the row names a parent that does not exist (or is not the account's). */
export function isForeignKeyViolation(error: unknown): boolean {
  return someLink(error, (e) => e.code === '23503' || e.code === 'P2003' || e.kind === 'ForeignKeyConstraintViolation' || sqlState(e) === '23503');
}

/**
 * Whether the database refused a statement for its data (SQLSTATE classes 22, data exception, and
 * 23, integrity constraint violation): trying the same data again fails the same way.
 */
export function isRefusedData(error: unknown): boolean {
  return someLink(error, (e) => (typeof e.code === 'string' && /^2[23]/.test(e.code)) || /^2[23]/.test(sqlState(e) ?? ''));
}
