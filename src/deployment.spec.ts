import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CADDYFILE, type CaddyfileOptions, caddyfileUse, type CaddyfileUse, readCaddyfileOptions } from '../test/support/caddyfile';
import { composeVariables, type Environment, interpolate, readCompose, serviceEnvironment } from '../test/support/compose';

/**
 * The deployment files fit together and fit the Caddy versions they run on: docker/Caddyfile uses
 * only options that both the tested Caddy (Debian's) and the image docker-compose.yml pins accept
 * (docker/caddyfile-options.json), the compose file gives Caddy and the app every variable they
 * read, and the README's production section names every variable the compose file needs.
 * test/production-topology.e2e-spec.ts runs the whole of it.
 */

const ROOT = join(__dirname, '..');
const caddyfile = readFileSync(CADDYFILE, 'utf8');
const options = readCaddyfileOptions();
const compose = readCompose();

/** What a Caddyfile uses that the list does not hold, by place. */
function outsideTheList(use: CaddyfileUse): string[] {
  const outside = (place: Exclude<keyof CaddyfileOptions & keyof CaddyfileUse, 'uncheckedBlocks'>, names: string[]) =>
    names.filter((name) => !options[place].includes(name)).map((name) => `${place}: ${name}`);
  return [
    ...outside('globalOptions', use.globalOptions),
    ...outside('onDemandTlsOptions', use.onDemandTlsOptions),
    ...outside(
      'directives',
      use.directives.filter((name) => name !== 'import'),
    ),
    ...outside('tlsOptions', use.tlsOptions),
    ...outside('matchers', use.matchers),
    ...use.uncheckedBlocks.map((block) => `no list for the options of: ${block}`),
  ];
}

describe('docker/Caddyfile', () => {
  it('uses only options valid in both the tested and the pinned Caddy', () => {
    const use = caddyfileUse(caddyfile);
    expect(use.globalOptions).toContain('on_demand_tls');
    expect(use.onDemandTlsOptions).toEqual(['ask']);
    expect(use.tlsOptions).toContain('on_demand');
    expect(outsideTheList(use)).toEqual([]);
  });

  it.each([
    ['a refused on_demand_tls option', '{\n\ton_demand_tls {\n\t\task http://x\n\t\tinterval 2m\n\t}\n}\n', ['onDemandTlsOptions: interval']],
    ['a global option of one version only', '{\n\tpersist_config off\n}\n', ['globalOptions: persist_config']],
    [
      'a directive of one version only',
      'a.example {\n\tbasic_auth {\n\t\tu p\n\t}\n}\n',
      ['directives: basic_auth', 'no list for the options of: basic_auth { u }'],
    ],
    ['a tls subdirective of one version only', 'a.example {\n\ttls {\n\t\tmode x\n\t}\n}\n', ['tlsOptions: mode']],
    ['a matcher of one version only', 'a.example {\n\t@m client_ip 10.0.0.0/8\n\trespond @m 403\n}\n', ['matchers: client_ip']],
    ['nothing outside the list', '{\n\temail a@b.example # a comment\n}\n(s) {\n\treverse_proxy {$UP}\n}\n{$HOST} {\n\timport s\n}\n', []],
  ])('the check finds %s', (_, text, found) => {
    expect(outsideTheList(caddyfileUse(text))).toEqual(found);
  });

  it('reads every variable from the environment docker-compose.yml gives Caddy', () => {
    const read = [...caddyfile.matchAll(/\{\$([A-Z_]+)(?::[^}]*)?\}/g)].map(([, name]) => name);
    expect(new Set(read)).toEqual(new Set(['ACME_EMAIL', 'APP_UPSTREAM', 'API_HOST', 'REDIRECT_HOST']));
    for (const name of read) expect(compose.services.caddy.environment).toHaveProperty(name);
  });
});

describe('docker-compose.yml', () => {
  const operator = { API_HOST: 'api.example.com', REDIRECT_HOST: 'qr.example.com', ACME_EMAIL: 'ops@example.com', ADMIN_TOKEN: 'x'.repeat(48) };

  it('pins Caddy to the version whose options the project checked', () => {
    expect(compose.services.caddy.image).toBe(`caddy:${options.pinned}`);
    expect(compose.services.caddy.ports).toEqual(expect.arrayContaining(['80:80', '443:443']));
  });

  it("gives Caddy both of the service's hosts, and the app the same hosts as its origins", () => {
    const caddy = serviceEnvironment(compose, 'caddy', operator);
    const app = serviceEnvironment(compose, 'api', operator);
    expect(caddy).toMatchObject({ API_HOST: 'api.example.com', REDIRECT_HOST: 'qr.example.com', ACME_EMAIL: 'ops@example.com' });
    expect(app).toMatchObject({
      BASE_URL: 'https://api.example.com',
      REDIRECT_URL: 'https://qr.example.com',
      TLS_ASK_ENABLED: '1',
      TRUST_PROXY: '1',
    });
    expect(caddy.APP_UPSTREAM).toBe(`api:${compose.services.api.expose?.[0]}`);
    // One host for both: the redirect host is the API's.
    const { REDIRECT_HOST: _, ...oneHost } = operator;
    expect(serviceEnvironment(compose, 'caddy', oneHost).REDIRECT_HOST).toBe('api.example.com');
    expect(serviceEnvironment(compose, 'api', oneHost).REDIRECT_URL).toBe('https://api.example.com');
  });

  it('runs two api instances behind Caddy and one worker beside them, from one configuration', () => {
    const api = serviceEnvironment(compose, 'api', operator);
    const worker = serviceEnvironment(compose, 'worker', operator);
    expect(api.ROLE).toBe('api');
    expect(worker.ROLE).toBe('worker');
    expect(compose.services.api.deploy?.replicas).toBe(2);
    expect(compose.services.worker.deploy?.replicas ?? 1).toBe(1);
    // The same database, Redis and origins: only the role differs.
    const { ROLE: _api, ...apiRest } = api;
    const { ROLE: _worker, ...workerRest } = worker;
    expect(workerRest).toEqual(apiRest);
    const running = Object.entries(compose.services).filter(([, service]) => service.environment?.ROLE !== undefined);
    expect(running.map(([name]) => name).sort()).toEqual(['api', 'worker']);
  });

  it.each(['API_HOST', 'ACME_EMAIL', 'ADMIN_TOKEN'])('refuses to start without %s', (name) => {
    const missing: Environment = { ...operator, [name]: undefined };
    expect(() => ['caddy', 'api', 'worker'].map((service) => serviceEnvironment(compose, service, missing))).toThrow(name);
    expect(composeVariables().get(name)).toEqual({ required: true });
  });

  it("the README's production section names every variable it reads, Caddy and its ports", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf('## Production');
    const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const unnamed = [...composeVariables().keys()].filter((name) => !section.includes(`\`${name}\``));
    expect(unnamed).toEqual([]);
    expect(section).toMatch(/Caddy/);
    expect(section).toMatch(/ports \*\*80 and 443\*\*/);
  });
});

describe('interpolate (Compose variable references)', () => {
  const env = { SET: 'value', EMPTY: '' };
  it.each([
    ['plain text', 'plain text'],
    ['${SET} and $SET', 'value and value'],
    ['${UNSET}', ''],
    ['${UNSET:-fallback}', 'fallback'],
    ['${EMPTY:-fallback}', 'fallback'],
    ['${EMPTY-fallback}', ''],
    ['${UNSET:-https://${SET}}', 'https://value'],
    ['${SET:+other}', 'other'],
    ['${UNSET:+other}', ''],
    ['$$SET', '$SET'],
    ['${SET:?needed}', 'value'],
  ])('%s → %s', (text, expected) => {
    expect(interpolate(text, env)).toBe(expected);
  });

  it.each(['${UNSET:?set UNSET}', '${EMPTY:?set EMPTY}', '${UNSET?set UNSET}'])('%s is an error naming the variable', (text) => {
    expect(() => interpolate(text, env)).toThrow(/UNSET|EMPTY/);
  });
});
