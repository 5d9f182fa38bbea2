import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migratePostgres, openEmbedded } from '../../src/infra/database/database-connection';
import { databaseUrlFor, RUN_PREFIX_ENV, serverUrl, TEMPLATE_ENV, withAdminClient } from './test-databases';

/** Migrates the template database every medium and e2e file clones (the whole suite runs on freshly migrated databases). */
export default async function globalSetup(): Promise<void> {
  process.env.TZ = 'UTC';
  // The medium and e2e projects share one template: the second project's setup finds it made.
  if (process.env[TEMPLATE_ENV]) return;
  const base = serverUrl();
  if (!base) {
    const dir = mkdtempSync(join(tmpdir(), 'qr-test-template-'));
    const db = await openEmbedded(join(dir, 'pglite'));
    await db.close();
    process.env[TEMPLATE_ENV] = dir;
    return;
  }
  const name = `qr_test_template_${process.pid}`;
  process.env[RUN_PREFIX_ENV] = `qr_test_${process.pid}_`;
  await withAdminClient(base, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  await migratePostgres(databaseUrlFor(base, name));
  process.env[TEMPLATE_ENV] = name;
}
