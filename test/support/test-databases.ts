import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { migratePostgres } from '../../src/infra/database/database-connection';

/**
 * Test databases. With DATABASE_URL set (CI, and anyone with PostgreSQL), the global setup migrates
 * one template database and every e2e file clones it (CREATE DATABASE ... TEMPLATE: fast, isolated).
 * Without it (`npm test` on a fresh machine) the template is an embedded PGlite directory, copied
 * per file.
 */
export const TEMPLATE_ENV = 'QR_TEST_TEMPLATE';
/** Databases of one jest run share this prefix, so a run cleans up only its own. */
export const RUN_PREFIX_ENV = 'QR_TEST_RUN_PREFIX';

export function serverUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

export function databaseUrlFor(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withAdminClient<T>(base: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: base });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  /** DATABASE_URL of the clone, or undefined for an embedded clone (see dataDir). */
  databaseUrl?: string;
  dataDir?: string;
  drop(): Promise<void>;
}

export async function cloneTemplate(): Promise<TestDatabase> {
  const template = process.env[TEMPLATE_ENV];
  if (!template) throw new Error('The e2e global setup did not run (no template database)');
  const base = serverUrl();
  if (!base) {
    const dataDir = mkdtempSync(join(tmpdir(), 'qr-test-db-'));
    cpSync(template, dataDir, { recursive: true });
    return { dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `${process.env[RUN_PREFIX_ENV]}${randomBytes(6).toString('hex')}`;
  await withAdminClient(base, async (client) => {
    // Two files cloning at the same instant can see each other on the template: retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (error) {
        if (attempt >= 20 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  });
  return {
    databaseUrl: databaseUrlFor(base, name),
    drop: () => withAdminClient(base, async (client) => void (await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))),
  };
}

/** A scratch database for a script (a bench, the screenshots): dropped if it exists, created and migrated; returns its URL. */
export async function freshMigratedDatabase(server: string, database: string): Promise<string> {
  await withAdminClient(`${server}/postgres`, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${database}"`);
  });
  const url = `${server}/${database}`;
  await migratePostgres(url);
  return url;
}
