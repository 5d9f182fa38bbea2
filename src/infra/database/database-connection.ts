import { mkdirSync } from 'node:fs';
import { type Extension, PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { Client, type Pool, type PoolConfig } from 'pg';
import type { DatabaseBudgets } from '../../config/app-config';
import type { PrismaClient } from '../../generated/prisma/client';
import { migrate } from './migrator';
import { type PgLinkWatchdog, watchedPool } from './pg-link-watchdog';
import { pgliteSession, pgPoolSession, pgSession, type SqlSession } from './sql-session';

type SqlDriverAdapterFactory = NonNullable<NonNullable<ConstructorParameters<typeof PrismaClient>[0]>['adapter']>;

// PGlite's contrib typings are ESM-only; the CommonJS build exists, so require it directly.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };

export type DatabaseKind = 'postgres' | 'embedded';

/**
 * The database as the app uses it: Prisma adapters for API reads and for writes (each on a pool of
 * its own, with its own statement timeout), raw sessions for scan batches (COPY), and a readiness
 * probe. On PostgreSQL every pooled connection is watched for dead links (PgLinkWatchdog).
 */
export interface DatabaseConnection {
  kind: DatabaseKind;
  reads: SqlDriverAdapterFactory;
  writes: SqlDriverAdapterFactory;
  /**
   * The API's write transactions, raw on the writes' own pool: a statement inside a Prisma
   * interactive transaction costs ~220 µs of CPU, raw ~40 µs (docs/architecture.md#database).
   */
  writeTransactions: SqlSession;
  /** Scan batches: a pool of its own, so a burst of stores never takes the API's connections. */
  scans: SqlSession;
  /** Background workers (webhook delivery): a pool of its own, raw pg like the scans. */
  workers: SqlSession;
  /** Resolves when the database answers `SELECT 1` within `timeoutMs`, else rejects. */
  probe(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Connections per instance and workload: API reads, API writes, scan stores, background workers. */
export const POOL_SIZES = { reads: 10, writes: 6, scans: 2, workers: 2 } as const;

const PROBE_TIMEOUT_MS = 1000;
/** How long closing waits for connections in use before it cuts them. */
const POOL_END_GRACE_MS = 500;
/** What lets a connection still count as healthy after the budget: the server's own timeout fires first. */
const HARD_LIMIT_MARGIN_MS = 1000;

function poolConfig(
  databaseUrl: string,
  budgets: DatabaseBudgets,
  statementTimeoutMs: number,
  max: number,
  name: string,
): PoolConfig & { connectionString: string; linkConnectTimeoutMillis: number } {
  return {
    connectionString: databaseUrl,
    max,
    application_name: `qr-service:${name}`,
    // Waiting for a free connection is part of the work's budget; opening one must be quick.
    connectionTimeoutMillis: statementTimeoutMs,
    linkConnectTimeoutMillis: budgets.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    statement_timeout: statementTimeoutMs,
    // No JIT: its compile time (hundreds of milliseconds) pays off only for long analytical scans;
    // an analytics statement over partitions and laterals is estimated costly enough to trigger it
    // and then spends 95 % of its time compiling (bench/README.md, "bench/analytics.ts").
    options: '-c jit=off',
    // A transaction left open by a client that died does not hold its locks for long.
    idle_in_transaction_session_timeout: statementTimeoutMs * 2,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}

export function connectPostgres(databaseUrl: string, budgets: DatabaseBudgets, onLinkCut?: (reason: string) => void): DatabaseConnection {
  const watchdogs: PgLinkWatchdog[] = [];
  const open = (name: keyof typeof POOL_SIZES, statementTimeoutMs: number): Pool => {
    const { pool, watchdog } = watchedPool(poolConfig(databaseUrl, budgets, statementTimeoutMs, POOL_SIZES[name], name), {
      suspectAfterMs: budgets.linkCheckMs,
      hardLimitMs: statementTimeoutMs + HARD_LIMIT_MARGIN_MS,
      // A fresh connection and one catalogue query take milliseconds; a second means the database is not answering.
      probeTimeoutMs: Math.min(budgets.connectTimeoutMs, PROBE_TIMEOUT_MS),
      onCut: onLinkCut,
    });
    // An idle client that loses its server emits 'error' on the pool; without a listener that ends the process.
    pool.on('error', () => undefined);
    watchdogs.push(watchdog);
    return pool;
  };
  const reads = open('reads', budgets.readTimeoutMs);
  const writes = open('writes', budgets.writeTimeoutMs);
  const scans = open('scans', budgets.scanStoreTimeoutMs);
  const workers = open('workers', budgets.writeTimeoutMs);
  return {
    kind: 'postgres',
    reads: new PrismaPg(reads),
    writes: new PrismaPg(writes),
    writeTransactions: pgPoolSession(writes),
    scans: pgPoolSession(scans),
    workers: pgPoolSession(workers),
    probe: (timeoutMs) => withinTime(reads.query('SELECT 1'), timeoutMs),
    close: async () => {
      for (const watchdog of watchdogs) watchdog.stop();
      const ended = Promise.all([reads.end(), writes.end(), scans.end(), workers.end()]);
      // A pool waits for its connections to come back; one stuck on a dead link would hold shutdown up.
      if ((await Promise.race([ended.then(() => true), sleep(POOL_END_GRACE_MS).then(() => false)])) === false) {
        for (const watchdog of watchdogs) watchdog.cutAll('the pool is closing');
        await Promise.race([ended, sleep(POOL_END_GRACE_MS)]);
      }
    },
  };
}

/** The embedded PGlite database in dataDir (created if needed), with the extensions the migrations use. */
export async function createPGlite(dataDir: string): Promise<PGlite> {
  mkdirSync(dataDir, { recursive: true });
  return PGlite.create(dataDir, { extensions: { pg_trgm } });
}

/**
 * Opens (creating if needed) the embedded PGlite database in dataDir and applies pending
 * migrations. One process, no network: no pools, no link to watch.
 */
export async function openEmbedded(dataDir: string): Promise<DatabaseConnection & { applied: string[] }> {
  const db = await createPGlite(dataDir);
  const sql = pgliteSession(db);
  const applied = await migrate(sql);
  return {
    kind: 'embedded',
    reads: new PrismaPGlite(db),
    writes: new PrismaPGlite(db),
    writeTransactions: sql,
    scans: sql,
    workers: sql,
    probe: (timeoutMs) => withinTime(db.query('SELECT 1'), timeoutMs),
    close: () => db.close(),
    applied,
  };
}

/** Applies pending migrations to a PostgreSQL database (npm run db:migrate, tests), under the migration budget (0: none). */
export async function migratePostgres(databaseUrl: string, statementTimeoutMs = 0): Promise<string[]> {
  const client = new Client({
    connectionString: databaseUrl,
    statement_timeout: statementTimeoutMs || undefined,
    application_name: 'qr-service:migrate',
  });
  await client.connect();
  try {
    return await migrate(pgSession(client));
  } finally {
    await client.end();
  }
}

async function withinTime(work: Promise<unknown>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
