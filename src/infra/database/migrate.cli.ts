import { loadAppConfig } from '../../config/app-config';
import { migratePostgres, openEmbedded } from './database-connection';
import { lockEmbeddedDatabase } from './embedded-database-lock';

/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database). */
async function main(): Promise<void> {
  const config = loadAppConfig();
  const applied = config.databaseUrl
    ? await migratePostgres(config.databaseUrl, config.database.migrationTimeoutMs)
    : await migrateEmbedded(config.dataDir, config.embeddedDatabaseDir);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database is up to date; nothing to apply.');
}

/** Not while a running service holds the embedded database (it would overwrite these changes). */
async function migrateEmbedded(dataDir: string, databaseDir: string): Promise<string[]> {
  const release = await lockEmbeddedDatabase(dataDir);
  try {
    const db = await openEmbedded(databaseDir);
    await db.close();
    return db.applied;
  } finally {
    await release();
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
