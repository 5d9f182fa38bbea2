import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createPGlite } from '../src/infra/database/database-connection';
import { migrate, MigrationError, type MigrationFile, readMigrations } from '../src/infra/database/migrator';
import { pgliteSession, pgSession, type SqlSession } from '../src/infra/database/sql-session';
import { databaseUrlFor, serverUrl, withAdminClient } from './support/test-databases';

/** A fresh, empty database on the run's PostgreSQL server, or an embedded one without DATABASE_URL. */
async function emptyDatabase(): Promise<{ session: SqlSession; close(): Promise<void> }> {
  const base = serverUrl();
  if (!base) {
    const dir = mkdtempSync(join(tmpdir(), 'qr-migrator-'));
    const db = await createPGlite(dir);
    return {
      session: pgliteSession(db),
      close: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `qr_test_migrator_${randomBytes(4).toString('hex')}`;
  await withAdminClient(base, (client) => client.query(`CREATE DATABASE "${name}"`));
  const client = new Client({ connectionString: databaseUrlFor(base, name) });
  await client.connect();
  return {
    session: pgSession(client),
    close: async () => {
      // Client.end resolves once the connection is closed (Pool.end does not wait for its clients):
      // dropping the database under a connection still open ends it with an error nobody hears.
      await client.end();
      await withAdminClient(base, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

const tables = async (session: SqlSession) =>
  (await session.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")).map(
    (r) => r.table_name,
  );

describe('migrator (e2e)', () => {
  const migrations = readMigrations();
  let db: Awaited<ReturnType<typeof emptyDatabase>>;

  beforeEach(async () => {
    db = await emptyDatabase();
  });
  afterEach(() => db.close());

  it('applies every migration once; a second run is a no-op', async () => {
    expect(migrations.length).toBeGreaterThanOrEqual(3);
    const applied = await migrate(db.session, migrations);
    expect(applied).toEqual(migrations.map((m) => m.name));
    expect(await tables(db.session)).toEqual(
      expect.arrayContaining(['_prisma_migrations', 'accounts', 'api_keys', 'folders', 'qr_codes', 'scan_events', 'service_settings']),
    );
    expect(await migrate(db.session, migrations)).toEqual([]);
    const [{ count }] = await db.session.query<{ count: string | number }>('SELECT count(*) AS count FROM "_prisma_migrations"');
    expect(Number(count)).toBe(migrations.length);
  });

  it('moves existing scan events into month partitions and builds their rollups (20261127090000)', async () => {
    const index = migrations.findIndex((m) => m.name === '20261127090000_partitioned_scans_and_rollups');
    await migrate(db.session, migrations.slice(0, index));
    const account = '11111111-1111-4111-8111-111111111111';
    const code = '22222222-2222-4222-8222-222222222222';
    await db.session.query('INSERT INTO accounts (id) VALUES ($1)', [account]);
    await db.session.query(
      `INSERT INTO qr_codes (id, account_id, name, type, content, content_string, is_dynamic, short_code, updated_at)
       VALUES ($1, $2, 'old', 'url', '{}', 'x', true, 'old1', now())`,
      [code, account],
    );
    // Three months of history (one scan a day at noon), a bot and a repeat visitor each day.
    await db.session.query(
      `INSERT INTO scan_events (event_id, qr_code_id, scanned_at, device, os, browser, visitor_hash, is_bot, referrer, country)
       SELECT gen_random_uuid(), $1, TIMESTAMPTZ '2026-06-01 12:00:00+00' + d * INTERVAL '1 day' + r * INTERVAL '1 minute',
         CASE WHEN r = 2 THEN 'bot' ELSE 'mobile' END, 'iOS', 'Safari', md5(d::text || (r % 2)::text)::char(32), r = 2,
         CASE WHEN r = 0 THEN 'https://news.example/x' END, 'DE'
       FROM generate_series(0, 91) d, generate_series(0, 3) r`,
      [code],
    );
    await migrate(db.session, migrations);
    const partitions = await db.session.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'scan_events'::regclass ORDER BY 1`,
    );
    expect(partitions.map((p) => p.name)).toEqual(
      expect.arrayContaining(['scan_events_default', 'scan_events_p202606', 'scan_events_p202607', 'scan_events_p202608']),
    );
    const [{ n: inDefault }] = await db.session.query<{ n: string | number }>('SELECT count(*) AS n FROM scan_events_default');
    expect(Number(inDefault)).toBe(0);
    const [totals] = await db.session.query<{ scans: string; bots: string; visitors: string; days: string }>(
      'SELECT sum(scans) AS scans, sum(bot_scans) AS bots, sum(unique_visitors) AS visitors, count(*) AS days FROM scan_code_days ' +
        'WHERE qr_code_id = $1',
      [code],
    );
    // Per day: 3 human scans from 2 visitors (r = 1 and r = 3 share a hash), 1 bot.
    expect([totals.scans, totals.bots, totals.visitors, totals.days].map(Number)).toEqual([92 * 3, 92, 92 * 2, 92]);
    const referrers = await db.session.query<{ value: string; scans: string }>(
      `SELECT value, sum(scans) AS scans FROM scan_account_day_values WHERE account_id = $1 AND dimension = 'referrer' GROUP BY 1 ORDER BY 1`,
      [account],
    );
    expect(referrers.map((r) => [r.value, Number(r.scans)])).toEqual([
      ['direct', 92 * 2],
      ['news.example', 92],
    ]);
  });

  it("records rows in Prisma's _prisma_migrations layout", async () => {
    await migrate(db.session, migrations);
    const columns = await db.session.query<{ column_name: string; data_type: string; is_nullable: string }>(
      "SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position",
    );
    expect(columns.map((c) => [c.column_name, c.data_type, c.is_nullable])).toEqual([
      ['id', 'character varying', 'NO'],
      ['checksum', 'character varying', 'NO'],
      ['finished_at', 'timestamp with time zone', 'YES'],
      ['migration_name', 'character varying', 'NO'],
      ['logs', 'text', 'YES'],
      ['rolled_back_at', 'timestamp with time zone', 'YES'],
      ['started_at', 'timestamp with time zone', 'NO'],
      ['applied_steps_count', 'integer', 'NO'],
    ]);
    const rows = await db.session.query<{
      id: string;
      checksum: string;
      migration_name: string;
      started_at: Date;
      finished_at: Date;
      applied_steps_count: number;
      rolled_back_at: Date | null;
      logs: string | null;
    }>('SELECT * FROM "_prisma_migrations" ORDER BY migration_name');
    rows.forEach((row, index) => {
      expect(row.migration_name).toBe(migrations[index].name);
      expect(row.checksum).toBe(migrations[index].checksum);
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.applied_steps_count).toBe(1);
      expect(row.rolled_back_at).toBeNull();
      expect(row.logs).toBeNull();
      expect(new Date(row.finished_at).getTime()).toBeGreaterThanOrEqual(new Date(row.started_at).getTime());
    });
  });

  it('refuses to run when an applied migration file was changed', async () => {
    await migrate(db.session, migrations);
    const changed: MigrationFile[] = migrations.map((m, i) => (i === 0 ? { ...m, script: `${m.script}\n-- edited`, checksum: 'f'.repeat(64) } : m));
    await expect(migrate(db.session, changed)).rejects.toThrow(MigrationError);
    await expect(migrate(db.session, changed)).rejects.toThrow(/modified after it was applied/);
  });

  it('rolls a failing migration back entirely and applies nothing after it', async () => {
    const broken: MigrationFile = {
      name: '20990101000000_broken',
      script: 'CREATE TABLE half_done (id int); SELECT * FROM no_such_table;',
      checksum: 'a'.repeat(64),
    };
    await expect(migrate(db.session, [...migrations, broken])).rejects.toThrow(/20990101000000_broken failed and was rolled back/);
    expect(await tables(db.session)).not.toContain('half_done');
    const names = (await db.session.query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations"')).map(
      (r) => r.migration_name,
    );
    expect(names).not.toContain('20990101000000_broken');
    expect(names).toEqual(expect.arrayContaining(migrations.map((m) => m.name)));
  });
});
