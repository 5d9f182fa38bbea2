import type { Kysely } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAppConfig } from '../../src/config/app-config';
import type { DB } from '../../src/generated/kysely/database';
import { connectPostgres, type DatabaseConnection, openEmbedded } from '../../src/infra/database/database-connection';
import { Database } from '../../src/infra/database/database.service';
import { cloneTemplate } from './test-databases';

/**
 * The medium tier (src/**\/*.medium-spec.ts): repositories against a real database, without HTTP,
 * Nest or Redis. Each file gets its own clone of the migrated template (PostgreSQL with
 * DATABASE_URL, an embedded PGlite copy without) and the app's own Database over it, on which a
 * spec constructs the repository under test directly (`new FoldersRepository(db.database)`).
 */
export interface MediumDatabase {
  /** The app's Database (read and write pools, transactions, the scans and workers sessions) on this file's clone. */
  database: Database;
  /** Every table of every account, on the write pool: for seeding rows and checking what the code under test left, independently of its queries. */
  tables: Kysely<DB>;
  close(): Promise<void>;
}

/** Opens a fresh clone of the template with the app's Database on it; `close` disconnects and drops the clone. */
export async function openMediumDatabase(): Promise<MediumDatabase> {
  const clone = await cloneTemplate();
  // A Postgres clone needs no directory, but the config wants one (it is never written to).
  const dataDir = clone.dataDir ?? mkdtempSync(join(tmpdir(), 'qr-medium-'));
  const config = loadAppConfig({ DATABASE_URL: clone.databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  let connection: DatabaseConnection;
  try {
    connection = config.databaseUrl ? connectPostgres(config.databaseUrl, config.database) : await openEmbedded(config.embeddedDatabaseDir);
  } catch (error) {
    await clone.drop();
    throw error;
  }
  const database = new Database(connection);
  return {
    database,
    tables: database.write.anyAccount,
    close: async () => {
      await database.onApplicationShutdown();
      await clone.drop();
      if (!clone.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Opens the file's database in beforeAll and closes it in afterAll; the fields are usable from the
 * spec's own beforeAll on (hooks run in the order they are registered: call this first).
 */
export function useMediumDatabase(): MediumDatabase {
  let opened: MediumDatabase | undefined;
  const current = (): MediumDatabase => {
    if (!opened) throw new Error('the medium database is open only between beforeAll and afterAll');
    return opened;
  };
  beforeAll(async () => {
    opened = await openMediumDatabase();
  });
  afterAll(async () => {
    await opened?.close();
    opened = undefined;
  });
  return {
    get database() {
      return current().database;
    },
    get tables() {
      return current().tables;
    },
    close: () => current().close(),
  };
}
