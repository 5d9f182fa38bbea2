import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SqlSession } from './sql-session';

/**
 * Applies prisma/migrations/<name>/migration.sql files in order, recording each in
 * `_prisma_migrations` exactly as `prisma migrate deploy` does (same table, SHA-256 checksum of the
 * file, timestamps, applied steps), so that Prisma's own CLI can take over on a machine that has
 * its native schema engine. Each migration runs in its own transaction under Prisma's advisory
 * lock; an applied file whose checksum changed, or a migration left failed, stops everything.
 */

export const MIGRATIONS_DIR = resolve(__dirname, '../../../prisma/migrations');

/** Prisma's migrate lock key, so the project's migrator and `prisma migrate` exclude each other. */
const ADVISORY_LOCK_KEY = 72707369;

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  script: string;
  checksum: string;
}

export class MigrationError extends Error {}

export function readMigrations(dir: string = MIGRATIONS_DIR): MigrationFile[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const script = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, script, checksum: createHash('sha256').update(script).digest('hex') };
    });
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

/** Applies pending migrations; returns the names applied (empty when up to date). */
export async function migrate(session: SqlSession, migrations: MigrationFile[] = readMigrations()): Promise<string[]> {
  await session.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
  try {
    await session.exec(CREATE_MIGRATIONS_TABLE);
    const applied = await session.query<AppliedRow>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
    );
    const appliedByName = new Map(applied.map((row) => [row.migration_name, row]));
    for (const row of applied) {
      if (row.finished_at === null) {
        throw new MigrationError(`Migration ${row.migration_name} failed earlier and is not finished; resolve it before migrating.`);
      }
    }
    for (const migration of migrations) {
      const row = appliedByName.get(migration.name);
      if (row && row.checksum !== migration.checksum) {
        throw new MigrationError(
          `Migration ${migration.name} was modified after it was applied ` +
            `(checksum ${row.checksum} in the database, ${migration.checksum} on disk); refusing to migrate.`,
        );
      }
    }
    const pending = migrations.filter((migration) => !appliedByName.has(migration.name));
    for (const migration of pending) await applyOne(session, migration);
    return pending.map((migration) => migration.name);
  } finally {
    await session.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]);
  }
}

async function applyOne(session: SqlSession, migration: MigrationFile): Promise<void> {
  await session.exec('BEGIN');
  try {
    const id = randomUUID();
    await session.query(
      'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
      [id, migration.checksum, migration.name],
    );
    await session.exec(migration.script);
    await session.query('UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1', [id]);
    await session.exec('COMMIT');
  } catch (error) {
    await session.exec('ROLLBACK');
    throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${(error as Error).message}`);
  }
}
