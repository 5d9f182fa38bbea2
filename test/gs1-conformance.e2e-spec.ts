import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import LINK_TYPES from '../src/gs1/links/gs1-web-vocabulary-link-types.json';
import { launchChromium } from './support/browser';
import { commonJsBundle } from './support/commonjs-bundle';
import { startConnectProxy } from './support/connect-proxy';
import { describeWhen, HAS_CHROMIUM, HAS_POSTGRES } from './support/environment';
import { auth, expectStatus, GENEROUS_RATE_LIMIT } from './support/factories';
import { freePort } from './support/free-port';
import { startTestApp, type TestApp } from './support/test-app';

const CADDY = '/usr/bin/caddy';
const PHP = '/usr/bin/php';
const hasPhpCurl = (): boolean => {
  if (!existsSync(PHP)) return false;
  try {
    return execFileSync(PHP, ['-m'], { encoding: 'utf8' }).split('\n').includes('curl');
  } catch {
    return false;
  }
};
/** Chromium, php-cli with php-curl and Caddy: `.ci/run` installs them; without one the suite cannot run (skipped, and CI fails on skips). */
const CAN_RUN = HAS_CHROMIUM && existsSync(CADDY) && hasPhpCurl() && HAS_POSTGRES;

const SUITE = join(__dirname, 'vendor', 'gs1-resolver-testsuite');
const FIXTURES = join(__dirname, 'fixtures', 'gs1');
/** A `.localhost` name: Chromium and curl resolve it to this machine by themselves (PHP's streams go through the proxy). */
const DOMAIN = 'gs1-conformance.brand.localhost';
/** The page the suite runs in; GS1's own address, answered by the test. */
const SUITE_PAGE = 'https://ref.gs1.org/test-suites/resolver/';
const TESTER = 'https://philarcher.org/gs1/tester.php';
const HARNESS = `<!doctype html><html><head><meta charset="utf-8"><title>GS1 resolver test suite</title>
<script src="ajv7.js"></script><script src="GS1DigitalLinkToolkit.js"></script><script src="GS1DigitalLinkResolverTestSuite.js"></script>
</head><body><img id="rotatingcircle" alt=""><div id="gs1ResolverTests"></div></body></html>`;

interface SuiteResult {
  id: string;
  status: 'pass' | 'fail' | 'warn';
  test: string;
  msg: string;
}

/**
 * GS1's own conformance test suite (gs1/GS1DL-resolver-testsuite, vendored under test/vendor) run
 * against the resolver on a verified branded domain, over HTTPS through Caddy (`tls internal`), with
 * the suite's remote references answered locally (docs/gs1-digital-link.md#conformance).
 */
describeWhen(CAN_RUN)('GS1 resolver conformance: GS1’s test suite in Chromium, through Caddy and php -S (e2e)', () => {
  let t: TestApp;
  let caddy: ChildProcess;
  let php: ChildProcess;
  let proxy: Awaited<ReturnType<typeof startConnectProxy>>;
  let browser: Browser;
  let log = '';
  let phpPort: number;
  let dl: string;
  const dir = mkdtempSync(join(tmpdir(), 'qr-gs1-conformance-'));

  beforeAll(async () => {
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, LOG_LEVEL: process.env.GS1_DEBUG ? 'error' : 'silent' }, { logDestination: process.stderr });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const appPort = (t.app.getHttpServer().address() as { port: number }).port;
    await registerItems(t);
    const httpsPort = await freePort();
    caddy = await startCaddy(dir, appPort, httpsPort, (chunk) => (log += chunk));
    proxy = await startConnectProxy([DOMAIN], httpsPort);
    phpPort = await freePort();
    php = await startPhp(dir, phpPort, proxy.port, (chunk) => (log += chunk));
    // The suite's page has GS1's public address and fetches a loopback one: Chromium's private/local
    // network access checks would block that (they cannot know the resolver is "public" here).
    browser = await launchChromium([
      '--ignore-certificate-errors',
      `--disable-features=${[
        'BlockInsecurePrivateNetworkRequests',
        'PrivateNetworkAccessSendPreflights',
        'PrivateNetworkAccessRespectPreflightResults',
        'LocalNetworkAccessChecks',
      ].join(',')}`,
    ]);
    dl = `https://${DOMAIN}:${httpsPort}/01/09506000134352`;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    php?.kill('SIGTERM');
    caddy?.kill('SIGTERM');
    await proxy?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes every test of the suite', async () => {
    const results = await runSuite(browser, phpPort, dl);
    const table = results.map((r) => `${r.status.padEnd(4)} ${r.id}: ${r.msg}`).join('\n');
    process.stdout.write(`GS1 resolver test suite, ${results.length} results:\n${table}\n`);
    if (process.env.GS1_DEBUG) process.stdout.write(log);
    expect(results.length).toBeGreaterThan(20);
    expect(results.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.msg}`)).toEqual([]);
  }, 180_000);

  async function registerItems(app: TestApp): Promise<void> {
    const { key, accountId } = await app.newAccount();
    const now = new Date();
    const domain = await app.prisma.domain.create({
      data: {
        id: randomUUID(),
        accountId,
        hostname: DOMAIN,
        status: 'verified',
        verificationToken: 'token',
        verifiedAt: now,
        createdAt: now,
        updatedAt: now,
      },
    });
    const html = { type: 'text/html' };
    const res = await app.request({
      method: 'POST',
      url: '/api/v1/gs1/items',
      headers: auth(key),
      payload: {
        path: '/01/09506000134352',
        domain_id: domain.id,
        name: 'Dal Giardino risotto rice',
        links: [
          { link_type: 'gs1:pip', href: 'https://brand.example/rice/en', title: 'Product information', hreflang: ['en'], ...html, default: true },
          { link_type: 'gs1:pip', href: 'https://brand.example/rice/fr', title: 'Informations produit', hreflang: ['fr'], ...html },
          { link_type: 'gs1:certificationInfo', href: 'https://brand.example/rice/organic', title: 'Organic', hreflang: ['en'], ...html },
          { link_type: 'gs1:certificationInfo', href: 'https://brand.example/rice/fairtrade', title: 'Fairtrade', hreflang: ['en'], ...html },
          { link_type: 'gs1:recallStatus', href: 'https://brand.example/recalls', title: 'Recall status' },
          { link_type: 'gs1:sustainabilityInfo', href: 'https://brand.example/rice/recycling.pdf', title: 'Recycling', type: 'application/pdf' },
        ],
      },
    });
    expectStatus(res, 201);
  }
});

async function startCaddy(dir: string, appPort: number, httpsPort: number, onLog: (chunk: string) => void): Promise<ChildProcess> {
  const httpPort = await freePort();
  writeFileSync(
    join(dir, 'Caddyfile'),
    `{
	admin off
	skip_install_trust
	http_port ${httpPort}
	https_port ${httpsPort}
	storage file_system ${join(dir, 'storage')}
}
https://${DOMAIN} {
	tls internal
	reverse_proxy 127.0.0.1:${appPort}
}
`,
  );
  const caddy = spawn(CADDY, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
    env: { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  caddy.stdout?.on('data', (chunk: Buffer) => ((output += chunk.toString()), onLog(chunk.toString())));
  caddy.stderr?.on('data', (chunk: Buffer) => ((output += chunk.toString()), onLog(chunk.toString())));
  const root = join(dir, 'storage', 'pki', 'authorities', 'local', 'root.crt');
  for (let i = 0; i < 200 && !(existsSync(root) && /certificate obtained successfully|serving initial configuration/.test(output)); i++)
    await sleep(100);
  if (!existsSync(root)) throw new Error(`Caddy did not start:\n${output}`);
  return caddy;
}

/**
 * php -S serving the suite's tester.php, trusting Caddy's CA: its curl resolves the `.localhost`
 * name itself; its streams (get_headers) resolve names with the system, which does not, so they
 * tunnel through the CONNECT proxy (a default stream context, set before the script runs).
 */
async function startPhp(dir: string, port: number, proxyPort: number, onLog: (chunk: string) => void): Promise<ChildProcess> {
  const root = join(dir, 'storage', 'pki', 'authorities', 'local', 'root.crt');
  const prepend = join(dir, 'prepend.php');
  // PHP's streams (the suite's get_headers) take no proxy from the environment: a default context gives it.
  writeFileSync(
    prepend,
    `<?php stream_context_set_default(['http' => ['proxy' => 'tcp://127.0.0.1:${proxyPort}'], 'ssl' => ['cafile' => '${root}']]);\n`,
  );
  const child = spawn(
    PHP,
    ['-S', `127.0.0.1:${port}`, '-t', SUITE, '-d', `curl.cainfo=${root}`, '-d', `openssl.cafile=${root}`, '-d', `auto_prepend_file=${prepend}`],
    {
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => onLog(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => onLog(chunk.toString()));
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/tester.php?test=none`).then(
      () => true,
      () => false,
    );
    if (up) return child;
    await sleep(100);
  }
  throw new Error('php -S did not start');
}

/** Opens the suite's page at GS1's address and runs it on the Digital Link; every remote reference is answered here. */
async function runSuite(browser: Browser, phpPort: number, dl: string): Promise<SuiteResult[]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const local: Record<string, { body: string; type: string }> = {
    [SUITE_PAGE]: { body: HARNESS, type: 'text/html' },
    [`${SUITE_PAGE}ajv7.js`]: { body: commonJsBundle('ajv', 'ajv7'), type: 'text/javascript' },
    [`${SUITE_PAGE}GS1DigitalLinkToolkit.js`]: { body: readFileSync(join(SUITE, 'GS1DigitalLinkToolkit.js'), 'utf8'), type: 'text/javascript' },
    [`${SUITE_PAGE}GS1DigitalLinkResolverTestSuite.js`]: {
      body: readFileSync(join(SUITE, 'GS1DigitalLinkResolverTestSuite.js'), 'utf8'),
      type: 'text/javascript',
    },
    'https://gs1.github.io/linkset/gs1-linkset-schema.json': {
      body: readFileSync(join(FIXTURES, 'gs1-linkset-schema.json'), 'utf8'),
      type: 'application/json',
    },
    'https://ref.gs1.org/standards/resolver/description-file-schema': {
      body: readFileSync(join(FIXTURES, 'description-file-schema.json'), 'utf8'),
      type: 'application/json',
    },
    'https://ref.gs1.org/voc/data/linktypes': { body: JSON.stringify(LINK_TYPES), type: 'application/json' },
  };
  await page.route(
    (url) => url.hostname !== DOMAIN,
    async (route) => {
      const url = route.request().url();
      const cors = { 'access-control-allow-origin': '*' };
      if (url.startsWith(TESTER)) {
        const answer = await fetch(`http://127.0.0.1:${phpPort}/tester.php${url.slice(TESTER.length)}`);
        return route.fulfill({ status: answer.status, body: await answer.text(), headers: { ...cors, 'content-type': 'application/json' } });
      }
      const file = local[url];
      if (file) return route.fulfill({ status: 200, body: file.body, headers: { ...cors, 'content-type': file.type } });
      return route.abort('blockedbyclient');
    },
  );
  await page.goto(SUITE_PAGE);
  // The suite's functions and results are top-level bindings of its script, not window properties: evaluated by name.
  await page.evaluate(`testDL(${JSON.stringify(dl)})`);
  // The description file and TLS checks run alongside, unawaited by the suite: wait until they settle.
  await page
    .waitForFunction(() => ['rdFile', 'tlsOK'].every((id) => document.getElementById(`${id}dd`)?.className === 'pass'), undefined, {
      timeout: 20_000,
    })
    .catch(() => undefined);
  const results = await page.evaluate<SuiteResult[]>('resultsArray.map(({ id, status, test, msg }) => ({ id, status, test, msg }))');
  await context.close();
  return results;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
