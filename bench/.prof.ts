import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { createApp } from '../src/app.factory';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { loadAppConfig } from '../src/config/app-config';
import { migratePostgres } from '../src/infra/database/database-connection';
const run = promisify(execFile);
async function main() {
  const PG = 'postgresql://postgres@127.0.0.1:5432'; const DB = 'qr_bench_prof';
  const admin = new Client({ connectionString: `${PG}/postgres` }); await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`); await admin.query(`CREATE DATABASE ${DB}`); await admin.end();
  await migratePostgres(`${PG}/${DB}`);
  if (process.env.X_LEAN) {
    const c = new Client({ connectionString: `${PG}/${DB}` }); await c.connect();
    await c.query(`ALTER TABLE scan_events DROP CONSTRAINT scan_events_qr_code_id_fkey; ALTER TABLE scan_events DROP CONSTRAINT scan_events_pkey; ALTER TABLE scan_events DROP COLUMN id; DROP INDEX scan_events_event_id_key; ALTER TABLE scan_events ADD PRIMARY KEY (event_id);`);
    await c.end();
  }
  const config = loadAppConfig({ PORT: '3902', DATABASE_URL: `${PG}/${DB}`, REDIS_URL: process.env.X_REDIS ?? 'redis://127.0.0.1:6379', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '1000000', REDIS_KEY_PREFIX: `prof:` });
  const app = await createApp(config, { logger: false });
  await app.listen({ port: 3902, host: '127.0.0.1' });
  const { key } = await app.get(ApiKeysService).create('bench');
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const post = async (body: unknown) => (await (await fetch('http://127.0.0.1:3902/api/v1/qrcodes', { method: 'POST', headers, body: JSON.stringify(body) })).json()) as any;
  const dynamic = await post({ type: 'url', content: { url: 'https://example.com/target' }, is_dynamic: true });
  const styled = await post({ type: 'url', content: { url: 'https://example.com/poster' }, style: { dotsOptions: { type: 'rounded', color: '#1a237e' } } });
  const which = process.argv[2];
  if (which === 'lean') {
    const Fastify = (await import('fastify')).default;
    const { registerRedirectRoute } = await import('../src/redirect/redirect.route');
    const { RedirectService } = await import('../src/redirect/redirect.service');
    const lean = Fastify();
    registerRedirectRoute(lean, app.get(RedirectService));
    await lean.listen({ port: 3903, host: '127.0.0.1' });
  }
  const url = which === 'lean' ? `http://127.0.0.1:3903/r/${dynamic.short_code}` : which === 'image' ? `http://127.0.0.1:3902/api/v1/qrcodes/${styled.id}/image` : `http://127.0.0.1:3902/r/${dynamic.short_code}`;
  const args = ['autocannon', '-c', '50', '-d', '10', '-j', '-H', `x-api-key=${key}`, url];
  const { stdout } = await run('npx', args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  console.log(which, Math.round(JSON.parse(stdout).requests.average), 'req/s');
  await app.close();
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
