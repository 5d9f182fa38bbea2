import { loadAppConfig } from '../../config/app-config';
import { migratePostgres, openEmbedded } from './database-connection';

/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database). */
async function main(): Promise<void> {
  const config = loadAppConfig();
  const applied = config.databaseUrl
    ? await migratePostgres(config.databaseUrl)
    : await openEmbedded(config.dataDir).then(async (db) => (await db.close(), db.applied));
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database is up to date; nothing to apply.');
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
