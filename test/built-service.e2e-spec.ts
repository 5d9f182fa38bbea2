import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { readDockerfile, runCli, runHealthcheck, startBuiltService, type BuiltService } from './support/built-service';
import { describeWhen, HAS_BUILD, HAS_POSTGRES, REPOSITORY_ROOT } from './support/environment';
import { freePort } from './support/free-port';
import { eventually } from './support/factories';
import { TcpOutageProxy } from './support/tcp-outage-proxy';
import { cloneTemplate, type TestDatabase } from './support/test-databases';

/**
 * The service as the container image runs it. Docker does not run on the build machines, so the
 * Dockerfile is read and its ENTRYPOINT, CMD and HEALTHCHECK are executed as they stand, from the
 * repository root (the image's WORKDIR holds the same files): what Docker would start is what is
 * tested here.
 */

const ADMIN_TOKEN = 'built-service-admin-token-0123';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/**
 * The first key the service printed, waiting for it: the banner goes out through pino's asynchronous
 * stream after listen, so it may reach stdout just after the service answers its readiness probe.
 */
async function printedKey(service: BuiltService): Promise<string | undefined> {
  const keyIn = (output: string) => /X-API-Key: (qr_live_\w+)/.exec(output)?.[1];
  await eventually(async () => keyIn(service.stdout()) !== undefined, true, 10_000);
  return keyIn(service.stdout());
}

describe('the container image (Dockerfile)', () => {
  const image = readDockerfile();

  it('builds and runs on the current Node LTS', () => {
    expect(image.baseImages.length).toBeGreaterThan(0);
    for (const base of image.baseImages) expect(base).toMatch(/^node:24-/);
  });

  it('starts through an entrypoint that execs its command, so node is PID 1', () => {
    expect(image.cmd).toEqual(['node', 'dist/main.js']);
    const script = image.entrypoint[image.entrypoint.length - 1];
    const lines = readFileSync(join(REPOSITORY_ROOT, script), 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'));
    expect(lines[lines.length - 1]).toBe('exec "$@"');
  });

  it('gives the embedded database a folder the service user owns', () => {
    const stage = image.runtimeStage.join('\n');
    expect(stage).toContain('ENV DATA_DIR=/app/data');
    expect(stage).toMatch(/RUN mkdir -p \/app\/data && chown node:node \/app\/data/);
    expect(image.runtimeStage.findIndex((line) => line.startsWith('USER node'))).toBeGreaterThan(
      image.runtimeStage.findIndex((line) => line.includes('chown node:node')),
    );
  });
});

describeWhen(HAS_BUILD)('the built service on the embedded database (e2e)', () => {
  let dataDir: string;
  let service: BuiltService | undefined;

  beforeEach(() => {
    dataDir = join(mkdtempSync(join(tmpdir(), 'qr-built-')), 'data');
  });
  afterEach(async () => {
    if (service && service.process.exitCode === null) {
      service.process.kill('SIGTERM');
      await service.exited;
    }
    service = undefined;
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
  });

  it('prints the first key last at start-up, with no route table above it at info level (LOG_LEVEL=debug shows the table)', async () => {
    service = await startBuiltService({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    expect(await printedKey(service)).toBeDefined();
    const output = service.stdout();
    const banner = output.indexOf('X-API-Key: qr_live_');
    expect(banner).toBeGreaterThan(-1);
    // Every start-up line is above the banner; only request lines (the readiness probe's) may follow it.
    const startupAfterBanner = output
      .slice(banner)
      .split('\n')
      .filter((line) => line.startsWith('{') && !line.includes('"request completed"'));
    expect(startupAfterBanner).toEqual([]);
    expect(output).toContain('Nest application successfully started');
    expect(output).not.toMatch(/Mapped \{/);
    service.process.kill('SIGTERM');
    await service.exited;

    service = await startBuiltService({ DATA_DIR: dataDir, LOG_LEVEL: 'debug' });
    // pino writes asynchronously: the start-up lines may still be on their way when the service answers.
    const routeLine = /"level":20,[^\n]*"msg":"Mapped \{\/api\/v1\/qrcodes, POST\} route"/;
    const debugService = service;
    expect(await eventually(async () => routeLine.test(debugService.stdout()), true, 10_000)).toBe(true);
  }, 120_000);

  it('keys create without --account: a new account if none, the only account if one, refused if several', async () => {
    const env = { DATA_DIR: dataDir };
    const accountOf = (stdout: string) => /for account ([0-9a-f-]{36})/.exec(stdout)?.[1];

    const first = await runCli(['keys', 'create', '--name', 'first'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/a new account \(there was none\)/);
    const only = accountOf(first.stdout);
    expect(only).toBeDefined();

    const second = await runCli(['keys', 'create', '--name', 'newcomer'], env);
    expect(second.code).toBe(0);
    expect(accountOf(second.stdout)).toBe(only);
    expect(second.stdout).toMatch(/the only account: this key sees its codes/);

    const other = await runCli(['keys', 'create', '--name', 'other team', '--new-account'], env);
    expect(other.code).toBe(0);
    expect(accountOf(other.stdout)).not.toBe(only);
    expect(other.stdout).toMatch(/a new account \(--new-account\)/);

    const refused = await runCli(['keys', 'create', '--name', 'which'], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim()).toMatch(/^Refused: there are 2 accounts; name one with --account ACCOUNT_ID .*keys list.*, or use --new-account$/);

    const named = await runCli(['keys', 'create', '--name', 'which', '--account', only!], env);
    expect(named.code).toBe(0);
    expect(accountOf(named.stdout)).toBe(only);
    expect(named.stdout).toMatch(/the account given with --account/);
    expect(named.stdout).toMatch(/scopes \*, every folder, no expiry/);

    const scoped = await runCli(
      ['keys', 'create', '--name', 'agency', '--account', only!, '--scopes', 'qrcodes:read,analytics:read', '--expires-at', '2030-01-01T00:00:00Z'],
      env,
    );
    expect(scoped.code).toBe(0);
    expect(scoped.stdout).toMatch(/scopes qrcodes:read,analytics:read, every folder, expires 2030-01-01T00:00:00.000Z/);
    const listed = await runCli(['keys', 'list'], env);
    expect(listed.stdout).toMatch(/"agency" .*scopes qrcodes:read,analytics:read, every folder, expires 2030-01-01T00:00:00.000Z/);
    const unknown = await runCli(['keys', 'create', '--name', 'bad', '--account', only!, '--scopes', 'codes:write'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/unknown scope "codes:write"/);
  }, 300_000); // seven CLI runs, each opening the embedded database: slow on a loaded machine

  it('passes the healthcheck on PORT, prints a first key; the CLI refuses in one line while the service holds the database, then works', async () => {
    service = await startBuiltService({ DATA_DIR: dataDir });
    expect(await runHealthcheck({ PORT: String(service.port) })).toBe(0);
    expect(await runHealthcheck({ PORT: String(await freePort()) })).toBe(1);

    const firstKey = await printedKey(service);
    expect(firstKey).toBeDefined();

    for (const args of [
      ['keys', 'create', '--name', 'ops'],
      ['keys', 'list'],
    ]) {
      const refused = await runCli(args, { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr.trim().split('\n')).toEqual([
        `Refused: the embedded database in ${dataDir} is in use by a running service. ` +
          'Stop the service first, or create keys through the admin API (ADMIN_TOKEN).',
      ]);
    }

    service.process.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });

    const created = await runCli(['keys', 'create', '--name', 'ops'], { DATA_DIR: dataDir });
    expect(created.code).toBe(0);
    const key = /(qr_live_\w+)/.exec(created.stdout)?.[1];
    expect(key).toBeDefined();
    const listed = await runCli(['keys', 'list'], { DATA_DIR: dataDir });
    expect(listed.stdout).toMatch(/"first key"/);
    expect(listed.stdout).toMatch(/"ops"/);

    // The key the CLI printed exists: the restarted service accepts it, and prints no new first key.
    service = await startBuiltService({ DATA_DIR: dataDir });
    expect(service.stdout()).not.toContain('qr_live_');
    const res = await fetch(`${service.url}/api/v1/qrcodes`, { headers: { 'x-api-key': key! } });
    expect(res.status).toBe(200);
  }, 120_000);
});

describeWhen(HAS_BUILD && HAS_POSTGRES)('the built service on PostgreSQL (e2e)', () => {
  let database: TestDatabase;
  let proxy: TcpOutageProxy & { proxiedUrl(): string };
  let service: BuiltService | undefined;

  beforeEach(async () => {
    database = await cloneTemplate();
    proxy = TcpOutageProxy.forUrl(database.databaseUrl!, 5432);
    await proxy.start();
  });
  afterEach(async () => {
    await proxy.restore();
    if (service && service.process.exitCode === null) {
      service.process.kill('SIGKILL');
      await service.exited;
    }
    service = undefined;
    await proxy.cut();
    await database.drop();
  });

  async function api(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
    const res = await fetch(`${service!.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
      body: init.body ? JSON.stringify(init.body) : undefined,
      redirect: 'manual',
    });
    return { status: res.status, body: (await res.text()) || '{}' };
  }

  it('stores the scans still buffered when node, as PID 1 of the container, gets SIGTERM', async () => {
    service = await startBuiltService({ DATABASE_URL: proxy.proxiedUrl(), ADMIN_TOKEN });
    // exec replaced the entrypoint's shell: the process Docker signals is node running the service.
    expect(readFileSync(`/proc/${service.process.pid}/cmdline`, 'utf8').split('\0').filter(Boolean)).toEqual(['node', 'dist/main.js']);
    // No first key on PostgreSQL without BOOTSTRAP_KEY=1: nothing secret in the container's logs.
    expect(service.stdout()).not.toContain('qr_live_');

    const minted = await api('/api/v1/admin/api-keys', { method: 'POST', headers: { 'x-admin-token': ADMIN_TOKEN }, body: { name: 'scans' } });
    expect(minted.status).toBe(201);
    const key = (JSON.parse(minted.body) as { key: string }).key;
    const created = await api('/api/v1/qrcodes', {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: { type: 'url', content: { url: 'https://example.com/shutdown' }, is_dynamic: true },
    });
    expect(created.status).toBe(201);
    const code = JSON.parse(created.body) as { id: string; short_code: string };
    // The first scan puts the link in the service's memory, so the next ones need no database.
    expect((await api(`/r/${code.short_code}`, { headers: { 'user-agent': PHONE } })).status).toBe(302);

    // The database stalls: scans completed from now on can only be in the service's buffer.
    await proxy.set('black-hole');
    const scans = 25;
    for (let i = 0; i < scans; i++) expect((await api(`/r/${code.short_code}`, { headers: { 'user-agent': PHONE } })).status).toBe(302);

    service.process.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(service.process.exitCode).toBeNull();
    await proxy.restore();
    expect(await service.exited).toEqual({ code: 0, signal: null });

    const client = new Client({ connectionString: database.databaseUrl });
    await client.connect();
    try {
      const stored = await client.query<{ count: string }>('SELECT count(*) FROM scan_events WHERE qr_code_id = $1', [code.id]);
      expect(Number(stored.rows[0].count)).toBe(scans + 1);
    } finally {
      await client.end();
    }
  }, 120_000);

  it('prints a first key on PostgreSQL only with BOOTSTRAP_KEY=1', async () => {
    service = await startBuiltService({ DATABASE_URL: proxy.proxiedUrl(), BOOTSTRAP_KEY: '1' });
    const key = await printedKey(service);
    expect(key).toBeDefined();
    expect((await api('/api/v1/qrcodes', { headers: { 'x-api-key': key! } })).status).toBe(200);
    service.process.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
  }, 120_000);
});
