import { mkdirSync } from 'node:fs';
import { type Extension, PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { Pool } from 'pg';
import type { PrismaClient } from '../../generated/prisma/client';
import { migrate } from './migrator';
import { pgliteSession, pgPoolSession, pgSession, SqlSession } from './sql-session';

type SqlDriverAdapterFactory = NonNullable<NonNullable<ConstructorParameters<typeof PrismaClient>[0]>['adapter']>;

// PGlite's contrib typings are ESM-only; the CommonJS build exists, so require it directly.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };

export type DatabaseKind = 'postgres' | 'embedded';

/** The driver adapter Prisma runs on, and how to close what it holds. */
export interface DatabaseConnection {
  kind: DatabaseKind;
  adapter: SqlDriverAdapterFactory;
  /** The same database for raw statements outside Prisma. */
  sql: SqlSession;
  close(): Promise<void>;
}

/** Connections per instance. */
export const POSTGRES_POOL_SIZE = 10;
/**
 * Short connect timeout so that an unreachable database answers 503 quickly instead of hanging;
 * the pool reconnects by itself when the database is back. TCP keep-alive (probes from 10 s
 * of silence on) lets a connection whose server vanished without a word fail rather than wait forever.
 */
const POSTGRES_POOL = { max: POSTGRES_POOL_SIZE, connectionTimeoutMillis: 2000, idleTimeoutMillis: 30_000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 };

export function connectPostgres(databaseUrl: string): DatabaseConnection {
  const pool = new Pool({ connectionString: databaseUrl, ...POSTGRES_POOL });
  // An idle client that loses its server emits 'error' on the pool; without a listener that crashes the process.
  pool.on('error', () => undefined);
  return { kind: 'postgres', adapter: new PrismaPg(pool), sql: pgPoolSession(pool), close: () => pool.end() };
}

/** The embedded PGlite database in dataDir (created if needed), with the extensions the migrations use. */
export async function createPGlite(dataDir: string): Promise<PGlite> {
  mkdirSync(dataDir, { recursive: true });
  return PGlite.create(dataDir, { extensions: { pg_trgm } });
}

/** Opens (creating if needed) the embedded PGlite database in dataDir and applies pending migrations. */
export async function openEmbedded(dataDir: string): Promise<DatabaseConnection & { applied: string[] }> {
  const db = await createPGlite(dataDir);
  const applied = await migrate(pgliteSession(db));
  return { kind: 'embedded', adapter: new PrismaPGlite(db), sql: pgliteSession(db), close: () => db.close(), applied };
}

/** Applies pending migrations to a PostgreSQL database (npm run db:migrate, tests). */
export async function migratePostgres(databaseUrl: string): Promise<string[]> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  const client = await pool.connect();
  try {
    return await migrate(pgSession(client));
  } finally {
    client.release();
    await pool.end();
  }
}
