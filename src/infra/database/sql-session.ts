import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';

/**
 * Raw SQL outside Prisma: the migrator (one session), and bulk statements whose large parameters
 * Prisma would copy and re-encode (the scan store). The same few calls on a `pg` connection or
 * pool, or on an embedded PGlite database.
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

/** Statements on any connection of the pool: one statement each, no session state. */
export function pgPoolSession(pool: Pool): SqlSession {
  return {
    query: async <Row>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as Row[],
    exec: async (script) => {
      await pool.query(script);
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
