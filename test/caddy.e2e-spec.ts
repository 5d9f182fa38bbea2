import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestDnsServer } from './support/dns-server';
import { describeWhen } from './support/environment';
import { auth, createQr, expectStatus, GENEROUS_RATE_LIMIT } from './support/factories';
import { freePort } from './support/free-port';
import { startTestApp, type TestApp } from './support/test-app';

const CADDY = '/usr/bin/caddy';
/** Debian's caddy (2.6.2; `.ci/run` installs it). */
const HAS_CADDY = existsSync(CADDY);

type HttpsAnswer = { status: number; location?: string } | { error: string };

/** An HTTPS request to Caddy's port as a browser on `hostname` would send it (SNI and Host), trusting Caddy's own CA. */
function getThroughCaddy(port: number, hostname: string, path: string): Promise<HttpsAnswer> {
  return new Promise((resolve) => {
    const request = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        servername: hostname,
        headers: { host: hostname, 'user-agent': 'Mozilla/5.0 (caddy test)' },
        rejectUnauthorized: false,
        timeout: 10_000,
      },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, location: response.headers.location });
      },
    );
    request.on('error', (error) => resolve({ error: error.message }));
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.end();
  });
}

/**
 * A real Caddy in front of the app, as docker/Caddyfile puts it, offline: its own CA (`tls
 * internal`) issues certificates on demand, only for names the app's ask endpoint allows.
 */
describeWhen(HAS_CADDY)('Caddy in front: TLS on demand for verified domains (e2e)', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let caddy: ChildProcess;
  let caddyLog = '';
  let httpsPort: number;
  let key: string;
  const dir = mkdtempSync(join(tmpdir(), 'qr-caddy-'));
  const verifiedHost = `shop-${process.pid}.brand.example`;
  const pendingHost = `pending-${process.pid}.brand.example`;

  beforeAll(async () => {
    dns = await new TestDnsServer().start();
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, DNS_RESOLVERS: dns.address, TLS_ASK_ENABLED: '1', TRUST_PROXY: '1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const appPort = (t.app.getHttpServer().address() as { port: number }).port;
    ({ key } = await t.newAccount());
    httpsPort = await freePort();
    const httpPort = await freePort();
    writeFileSync(
      join(dir, 'Caddyfile'),
      `{
	admin off
	skip_install_trust
	http_port ${httpPort}
	https_port ${httpsPort}
	storage file_system ${join(dir, 'storage')}
	on_demand_tls {
		ask http://127.0.0.1:${appPort}/internal/tls/ask
	}
}
https:// {
	tls internal {
		on_demand
	}
	@internal path /internal/*
	respond @internal 404
	reverse_proxy 127.0.0.1:${appPort}
}
`,
    );
    caddy = spawn(CADDY, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
      env: { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    caddy.stdout?.on('data', (chunk: Buffer) => (caddyLog += chunk.toString()));
    caddy.stderr?.on('data', (chunk: Buffer) => (caddyLog += chunk.toString()));
    // Caddy is up once its HTTPS port accepts connections.
    for (let i = 0; i < 100 && !/serving initial configuration|server running/.test(caddyLog); i++) await new Promise((r) => setTimeout(r, 100));
  }, 30_000);

  afterAll(async () => {
    caddy?.kill('SIGTERM');
    await t?.close();
    await dns?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gets the 302 of a code on a verified domain through Caddy over HTTPS; an unverified domain gets no certificate', async () => {
    const add = async (hostname: string) =>
      (await t.request({ method: 'POST', url: '/api/v1/domains', headers: auth(key), payload: { hostname } })).json();
    const verified = await add(verifiedHost);
    dns.set(verified.verification.name, { txt: [verified.verification.value] });
    expectStatus(await t.request({ method: 'POST', url: `/api/v1/domains/${verified.id}/verify`, headers: auth(key) }), 200);
    await add(pendingHost);
    const code = await createQr(t, key, {
      is_dynamic: true,
      domain_id: verified.id,
      short_code: 'poster',
      content: { url: 'https://example.com/through-caddy' },
    });
    expect(code.dynamic_url).toBe(`https://${verifiedHost}/r/poster`);

    const through = await getThroughCaddy(httpsPort, verifiedHost, '/r/poster');
    expect(through).toEqual({ status: 302, location: 'https://example.com/through-caddy' });
    // The ask endpoint is not reachable from outside, even on a verified domain.
    expect(await getThroughCaddy(httpsPort, verifiedHost, '/internal/tls/ask?domain=x')).toMatchObject({ status: 404 });

    const refused = await getThroughCaddy(httpsPort, pendingHost, '/r/poster');
    expect(refused).toEqual({ error: expect.stringMatching(/alert|handshake|socket hang up|ECONNRESET|disconnected/i) });
    const unknown = await getThroughCaddy(httpsPort, `nobody-${process.pid}.example`, '/');
    expect('error' in unknown).toBe(true);
  }, 60_000);
});
