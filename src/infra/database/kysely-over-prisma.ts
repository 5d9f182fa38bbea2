import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  DeleteQueryNode,
  InsertQueryNode,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  UpdateQueryNode,
} from 'kysely';
import type { SqlTransaction } from './sql-session';

/** The two raw-query calls of a Prisma client (or of its interactive transaction) that Kysely's queries run through. */
export interface RawQueryRunner {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/**
 * Kysely builds and types the queries; Prisma runs them, on its driver adapter (pg or PGlite), its
 * pool and its transactions. Kysely's own transactions are not used: a transaction is a Prisma
 * interactive transaction with a Kysely of its own over the transaction client (Database.transaction).
 */
export class PrismaDialect implements Dialect {
  constructor(private readonly runner: RawQueryRunner) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PrismaDriver(this.runner);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

class PrismaDriver implements Driver {
  private readonly connection: PrismaConnection;

  constructor(runner: RawQueryRunner) {
    this.connection = new PrismaConnection(runner);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }

  async beginTransaction(): Promise<void> {
    throw new Error('Kysely transactions are not used here: call Database.transaction()');
  }

  async commitTransaction(): Promise<void> {
    throw new Error('Kysely transactions are not used here: call Database.transaction()');
  }

  async rollbackTransaction(): Promise<void> {
    throw new Error('Kysely transactions are not used here: call Database.transaction()');
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {}
}

class PrismaConnection implements DatabaseConnection {
  constructor(private readonly runner: RawQueryRunner) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { query, sql, parameters } = compiled;
    // Writes without RETURNING answer how many rows they touched; everything else answers rows.
    const counted = (InsertQueryNode.is(query) || UpdateQueryNode.is(query) || DeleteQueryNode.is(query)) && !query.returning;
    if (counted) return { rows: [], numAffectedRows: BigInt(await this.runner.$executeRawUnsafe(sql, ...parameters)) };
    return { rows: await this.runner.$queryRawUnsafe<R[]>(sql, ...parameters) };
  }

  // eslint-disable-next-line require-yield -- an async generator is the interface's shape; streaming is not offered
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported over Prisma');
  }
}

/**
 * A raw SQL transaction (pg or PGlite, sql-session.ts) as the runner Kysely's queries go through:
 * the same typed builders, run without Prisma (see Database.transaction).
 */
export function sqlRunner(tx: Pick<SqlTransaction, 'query' | 'execute'>): RawQueryRunner {
  return {
    $queryRawUnsafe: async <T>(query: string, ...values: unknown[]) => (await tx.query(query, values)) as T,
    $executeRawUnsafe: (query: string, ...values: unknown[]) => tx.execute(query, values),
  };
}
