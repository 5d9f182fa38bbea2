import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { type BuiltService, startBuiltService } from './support/built-service';
import { CaddyProcess, type Answer, httpsTo, httpTo, type CaddyRequest } from './support/caddy-process';
import { CADDYFILE } from './support/caddyfile';
import { composeVariables, type Environment, readCompose, serviceEnvironment } from './support/compose';
import { TestDnsServer } from './support/dns-server';
import { describeWhen, HAS_BUILD, HAS_CADDY, HAS_POSTGRES, HAS_REDIS, hasCommand, REPOSITORY_ROOT } from './support/environment';
import { markedShellBlocks, readmeBlock } from './support/readme';
import { cloneTemplate, type TestDatabase } from './support/test-databases';

/**
 * The production topology of docker-compose.yml without Docker: the shipped docker/Caddyfile on
 * Debian's Caddy, with the environment the compose file gives Caddy, in front of the built service
 * started as the image starts it (entrypoint: migrations, then node) with the environment the
 * compose file gives the app, on PostgreSQL and Redis. The operator's variables come from running
 * the README's deploy block. What differs from a real deployment, and only that: Caddy's ports
 * (free ones instead of 80/443), its certificates (its own CA, `local_certs`, instead of Let's
 * Encrypt: offline), the addresses compose names by service (APP_UPSTREAM, DATABASE_URL,
 * REDIS_URL, DNS_RESOLVERS: the test's own), and one `api` instance behind Caddy where compose runs
 * two replicas behind one name; the `worker` runs beside it, as compose gives it its environment.
 */

const run = promisify(execFile);
const TOOLS = ['jq', 'openssl', 'curl', 'bash'];
/** The README's blocks as a shell runs them, stopping at the first failure; --norc: bash reads no bashrc (it would, its stdin being a socket). */
const BASH = ['--norc', '-euo', 'pipefail'];

/** The README's deploy block, all but `docker compose` itself, in bash: the variables it exports that the compose file reads. */
async function operatorEnvironment(): Promise<Environment> {
  const block = readmeBlock('deploy');
  const commands = block
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('docker compose'))
    .join('\n');
  expect(commands).not.toBe(block);
  const { stdout } = await run('bash', [...BASH, '-c', `${commands}\nenv -0`], { env: { PATH: process.env.PATH } });
  const exported = new Map(stdout.split('\0').map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
  return Object.fromEntries([...composeVariables().keys()].filter((name) => exported.has(name)).map((name) => [name, exported.get(name)]));
}

describeWhen(HAS_CADDY && HAS_BUILD && HAS_POSTGRES && HAS_REDIS && TOOLS.every(hasCommand))(
  'the production topology: docker/Caddyfile in front of the built service (e2e; needs caddy, jq, openssl, curl, the build, PostgreSQL and Redis)',
  () => {
    let dir: string;
    const compose = readCompose();
    let operator: Environment;
    let dns: TestDnsServer;
    let database: TestDatabase;
    let service: BuiltService;
    let worker: BuiltService;
    let caddy: CaddyProcess;
    let ca: string;
    let key: string;
    let apiHost: string;
    let redirectHost: string;

    /** A request through Caddy's HTTPS port to `hostname`, trusting Caddy's CA only. */
    const through = (hostname: string, request: CaddyRequest): Promise<Answer> => httpsTo(caddy.httpsPort, hostname, ca, request);
    const api = (request: CaddyRequest) => through(apiHost, { ...request, headers: { 'x-api-key': key, ...request.headers } });
    const json = <T>(answer: Answer): T => {
      if ('error' in answer) throw new Error(answer.error);
      return JSON.parse(answer.body) as T;
    };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'qr-topology-'));
      operator = await operatorEnvironment();
      dns = await new TestDnsServer().start();
      database = await cloneTemplate();
      const operatorWithResolver = { ...operator, DNS_RESOLVERS: dns.address };
      const addresses = { DATABASE_URL: database.databaseUrl!, REDIS_URL: process.env.REDIS_URL!, REDIS_KEY_PREFIX: `topology-${process.pid}:` };
      [service, worker] = await Promise.all(
        ['api', 'worker'].map((name) => startBuiltService({ ...serviceEnvironment(compose, name, operatorWithResolver), ...addresses })),
      );
      const caddyEnvironment: Record<string, string> = {
        ...serviceEnvironment(compose, 'caddy', operatorWithResolver),
        APP_UPSTREAM: `127.0.0.1:${service.port}`,
      };
      ({ API_HOST: apiHost, REDIRECT_HOST: redirectHost } = caddyEnvironment);
      caddy = await CaddyProcess.start(dir, readFileSync(CADDYFILE, 'utf8'), caddyEnvironment);
      ca = caddy.rootCertificate();
    }, 120_000);

    afterAll(async () => {
      await caddy?.stop();
      for (const instance of [service, worker]) {
        if (instance && instance.process.exitCode === null) {
          instance.process.kill('SIGTERM');
          await instance.exited;
        }
      }
      await dns?.close();
      await database?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("the README's deploy block sets every variable the compose file requires, and two hosts", () => {
      const required = [...composeVariables()].filter(([, { required }]) => required).map(([name]) => name);
      expect(required.sort()).toEqual(['ACME_EMAIL', 'ADMIN_TOKEN', 'API_HOST']);
      for (const name of required) expect(operator[name]).toBeTruthy();
      expect(operator.ADMIN_TOKEN!.length).toBeGreaterThanOrEqual(16);
      expect(redirectHost).not.toBe(apiHost);
    });

    it('mints the first key through Caddy as the README says (curl over HTTPS to API_HOST with ADMIN_TOKEN)', async () => {
      // curl as written; its configuration file sends every connection to Caddy's port and trusts Caddy's CA.
      writeFileSync(join(dir, 'ca.pem'), ca);
      writeFileSync(join(dir, '.curlrc'), `connect-to = "::127.0.0.1:${caddy.httpsPort}"\ncacert = "${join(dir, 'ca.pem')}"\n`);
      const { stdout } = await run('bash', [...BASH, '-c', readmeBlock('deploy-first-key')], {
        env: { PATH: process.env.PATH, HOME: dir, CURL_HOME: dir, ...operator },
      });
      const lines = stdout.trim().split('\n');
      expect(JSON.parse(lines[0])).toMatchObject({ status: 'ok' });
      expect(lines[lines.length - 1]).toMatch(/^qr_live_\w{40}$/);
      key = lines[lines.length - 1];
    }, 30_000);

    it('serves the API host and the redirect host over HTTPS with certificates for their names; port 80 redirects', async () => {
      const created = await api({
        method: 'POST',
        path: '/api/v1/qrcodes',
        body: { type: 'url', content: { url: 'https://example.com/printed' }, is_dynamic: true },
      });
      expect(created).toMatchObject({ status: 201 });
      const code = json<{ id: string; dynamic_url: string; short_code: string }>(created);
      expect(code.dynamic_url).toBe(`https://${redirectHost}/r/${code.short_code}`);
      expect(await through(redirectHost, { path: `/r/${code.short_code}` })).toMatchObject({
        status: 302,
        headers: { location: 'https://example.com/printed' },
      });
      expect(await api({ path: `/api/v1/qrcodes/${code.id}/image?size=300` })).toMatchObject({ status: 200, body: expect.stringMatching(/^<svg/) });
      // The ask endpoint is Caddy's alone: 404 from outside, on every host.
      for (const host of [apiHost, redirectHost])
        expect(await through(host, { path: `/internal/tls/ask?domain=${apiHost}` })).toMatchObject({ status: 404 });
      expect(await httpTo(caddy.httpPort, apiHost, { path: '/health/live' })).toMatchObject({
        status: 308,
        headers: { location: `https://${apiHost}/health/live` },
      });
    }, 30_000);

    it('gets a certificate on demand for a verified branded domain, and none for an unverified or unknown name', async () => {
      const verifiedHost = `print-${process.pid}.brand.example`;
      const pendingHost = `pending-${process.pid}.brand.example`;
      const add = async (hostname: string) =>
        json<{ id: string; verification: { name: string; value: string } }>(
          await api({ method: 'POST', path: '/api/v1/domains', body: { hostname } }),
        );
      const verified = await add(verifiedHost);
      dns.set(verified.verification.name, { txt: [verified.verification.value] });
      expect(await api({ method: 'POST', path: `/api/v1/domains/${verified.id}/verify` })).toMatchObject({ status: 200 });
      await add(pendingHost);
      const code = json<{ dynamic_url: string }>(
        await api({
          method: 'POST',
          path: '/api/v1/qrcodes',
          body: { type: 'url', content: { url: 'https://example.com/branded' }, is_dynamic: true, domain_id: verified.id, short_code: 'poster' },
        }),
      );
      expect(code.dynamic_url).toBe(`https://${verifiedHost}/r/poster`);

      expect(await through(verifiedHost, { path: '/r/poster' })).toMatchObject({ status: 302, headers: { location: 'https://example.com/branded' } });
      // A branded domain never fronts the API.
      expect(await through(verifiedHost, { path: '/api/v1/qrcodes', headers: { 'x-api-key': key } })).toMatchObject({ status: 404 });
      for (const refused of [pendingHost, `nobody-${process.pid}.example`]) {
        expect(await through(refused, { path: '/r/poster' })).toEqual({
          error: expect.stringMatching(/alert|handshake|socket hang up|ECONNRESET|disconnected/i),
        });
      }
    }, 30_000);

    it('runs the guide (docs/guide.md) from top to bottom through Caddy, as a user with the first key would', async () => {
      // The guide's DNS step is the user's, at their provider: here the test's DNS server answers a
      // domain's TXT record from the database, as the provider would once the user created it.
      const db = new Client({ connectionString: database.databaseUrl });
      await db.connect();
      dns.fallback = async (name) => {
        if (!name.startsWith('_qr-verify.')) return undefined;
        const rows = await db.query<{ token: string }>('SELECT verification_token AS token FROM domains WHERE hostname = $1', [name.slice(11)]);
        return { txt: rows.rows.map((row) => row.token) };
      };
      const work = mkdtempSync(join(dir, 'guide-'));
      // The setup block's BASE and KEY are the user's to fill in: here the API host through Caddy and the first key.
      const script = markedShellBlocks('docs/guide.md', 'guide')
        .map(({ code }) => code)
        .join('\n')
        .split('\n')
        .filter((line) => !/^(BASE|KEY)=/.test(line))
        .join('\n');
      try {
        const { stdout } = await run('bash', [...BASH, '-c', script], {
          cwd: work,
          env: { PATH: process.env.PATH, HOME: dir, CURL_HOME: dir, BASE: `https://${apiHost}`, KEY: key },
          timeout: 120_000,
        });
        expect(stdout).toContain('302 https://example.com/spring\n');
        expect(stdout).toContain('https://example.com/spring-sale\n2\n');
        expect(stdout).toContain('QR code updated');
        expect(stdout).toMatch(/"outcome": "redirect",\s+"location": "https:\/\/example.com\/de\?utm_source=qr&utm_campaign=spring"/);
        expect(stdout).toContain('"verified"');
        expect(stdout).toContain('https://qr.yourbrand.example/r/menu\n302 https://example.com/menu');
        expect(stdout).toMatch(/^x-qr-module-size-mm: [\d.]+/im);
        expect(stdout).toContain('"counts":{');
        expect(stdout).toContain('API key revoked');
        expect(stdout).toMatch(/\["Store Berlin","Store Paris"\]|\["Store Paris","Store Berlin"\]/);
        expect(stdout).toMatch(/^404$/m);
        expect(readFileSync(join(work, 'spring.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
        expect(readFileSync(join(work, 'codes.zip')).subarray(0, 2).toString()).toBe('PK');
        expect(readFileSync(join(work, 'spring.svg'), 'utf8')).toMatch(/^<svg/);
      } finally {
        dns.fallback = undefined;
        await db.end();
      }
    }, 150_000);

    it("mints a key with the README's other way: the CLI as `docker compose exec api` runs it, with the api's environment", async () => {
      const [line] = readmeBlock('deploy-cli').split('\n');
      const prefix = 'docker compose exec api ';
      expect(line.startsWith(prefix)).toBe(true);
      const environment = { ...serviceEnvironment(compose, 'api', operator), DATABASE_URL: database.databaseUrl!, REDIS_URL: process.env.REDIS_URL! };
      const { stdout } = await run('bash', [...BASH, '-c', line.slice(prefix.length)], {
        cwd: REPOSITORY_ROOT,
        env: { PATH: process.env.PATH, HOME: dir, ...environment },
      });
      expect(stdout).toMatch(/qr_live_\w{40}/);
      // One account so far (the first key's): the CLI adds the key to it.
      expect(stdout).toMatch(/the only account/);
    }, 60_000);
  },
);
