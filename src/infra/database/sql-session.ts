import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { ClientBase, Pool } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Raw SQL outside Prisma: the migrator (one session), and bulk statements whose large parameters
 * Prisma would copy and re-encode (the scan store). The same few calls on a `pg` connection or
 * pool, or on an embedded PGlite database.
 */
export interface SqlSession {
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements (a migration file). */
  exec(script: string): Promise<void>;
  /**
   * Runs `work` in one transaction on one connection: committed if it resolves, rolled back if it
   * throws. `commitGuard`, when given, runs the commit (it may do more in the same step, such as
   * releasing counts the commit makes stale, under a lock of its own). On PGlite, which runs one
   * transaction at a time in process, the guard wraps the whole transaction.
   */
  transaction<T>(work: (tx: SqlTransaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
}

export interface TransactionOptions {
  commitGuard?: (commit: () => Promise<void>) => Promise<void>;
}

export interface SqlTransaction {
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a write and answers how many rows it touched. */
  execute(sql: string, params?: unknown[]): Promise<number>;
  /**
   * Runs `COPY ... FROM STDIN` with `chunks` as its input, in COPY's text format: the cheapest way
   * into a table (about half the server time of an INSERT of the same rows from a JSON parameter).
   */
  copyFrom(copySql: string, chunks: ReadonlyArray<string | Buffer>): Promise<void>;
}

function pgTransaction(client: ClientBase): SqlTransaction {
  return {
    query: async <Row>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Row[],
    execute: async (sql: string, params: unknown[] = []) => (await client.query(sql, params)).rowCount ?? 0,
    copyFrom: (copySql, chunks) => pipeline(Readable.from(chunks), client.query(copyFrom(copySql))),
  };
}

async function pgTransactionOn<T>(client: ClientBase, work: (tx: SqlTransaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work(pgTransaction(client));
    const commit = async () => void (await client.query('COMMIT'));
    await (options.commitGuard ? options.commitGuard(commit) : commit());
    return result;
  } catch (error) {
    // A failed ROLLBACK means the connection is gone, and the transaction with it: the first error is the one to report.
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Statements on one connection (a pool's client, or a client of its own). */
export function pgSession(client: ClientBase): SqlSession {
  return {
    query: async <Row>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Row[],
    exec: async (script) => {
      await client.query(script);
    },
    transaction: (work, options) => pgTransactionOn(client, work, options),
  };
}

/** Statements on any connection of the pool: one statement each, no session state; a transaction holds one connection. */
export function pgPoolSession(pool: Pool): SqlSession {
  return {
    query: async <Row>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as Row[],
    exec: async (script) => {
      await pool.query(script);
    },
    transaction: async (work, options) => {
      const client = await pool.connect();
      // The pool listens for errors of idle clients only; a checked-out client that loses its
      // server emits 'error' too (besides failing its query), which unheard would end the process.
      const ignoreLostConnection = () => undefined;
      client.on('error', ignoreLostConnection);
      let broken: Error | undefined;
      try {
        return await pgTransactionOn(client, work, options);
      } catch (error) {
        broken = error as Error;
        throw error;
      } finally {
        client.off('error', ignoreLostConnection);
        // A connection that failed mid-COPY may be in any protocol state: it is closed, not reused.
        client.release(broken);
      }
    },
  };
}

function pgliteTransaction(tx: Transaction): SqlTransaction {
  return {
    query: async <Row>(sql: string, params: unknown[] = []) => (await tx.query<Row>(sql, params)).rows,
    execute: async (sql: string, params: unknown[] = []) => (await tx.query(sql, params)).affectedRows ?? 0,
    // PGlite reads COPY input from its /dev/blob device.
    copyFrom: async (copySql, chunks) => {
      const text = chunks.map((chunk) => (typeof chunk === 'string' ? chunk : chunk.toString('utf8')));
      await tx.query(copySql.replace(/\bFROM STDIN\b/, `FROM '/dev/blob'`), [], { blob: new Blob(text) });
    },
  };
}

export function pgliteSession(db: PGlite): SqlSession {
  return {
    query: async <Row>(sql: string, params: unknown[] = []) => (await db.query<Row>(sql, params)).rows,
    exec: async (script) => {
      await db.exec(script);
    },
    transaction: async (work, options) => {
      const run = () => db.transaction((tx) => work(pgliteTransaction(tx)));
      if (!options?.commitGuard) return run();
      let result!: Awaited<ReturnType<typeof work>>;
      await options.commitGuard(async () => void (result = await run()));
      return result;
    },
  };
}
