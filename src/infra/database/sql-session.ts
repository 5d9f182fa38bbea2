import type { PGlite } from '@electric-sql/pglite';
import type { PoolClient } from 'pg';

/**
 * One database session for raw SQL outside Prisma (the migrator): the same few calls on a `pg`
 * connection or on an embedded PGlite database.
 */
export interface SqlSession {
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements (a migration file). */
  exec(script: string): Promise<void>;
}

export function pgSession(client: PoolClient): SqlSession {
  return {
    query: async <Row>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Row[],
    exec: async (script) => {
      await client.query(script);
    },
  };
}

export function pgliteSession(db: PGlite): SqlSession {
  return {
    query: async <Row>(sql: string, params: unknown[] = []) => (await db.query<Row>(sql, params)).rows,
    exec: async (script) => {
      await db.exec(script);
    },
  };
}
