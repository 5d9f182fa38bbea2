import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { withGlobalOptions } from './caddyfile';
import { CADDY } from './environment';
import { freePort } from './free-port';

/**
 * Debian's caddy as a child process on ports of its own, offline: the given Caddyfile with global
 * options added that move it off 80/443, off the system's trust store and its admin port, keep its
 * state in `dir`, and make every certificate come from Caddy's own CA (`local_certs`: `tls
 * internal` for every site) instead of Let's Encrypt.
 */
export class CaddyProcess {
  private output = '';
  private readonly exit: Promise<unknown>;

  private constructor(
    private readonly child: ChildProcess,
    readonly httpPort: number,
    readonly httpsPort: number,
    private readonly dir: string,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exit = new Promise((resolve) => child.once('exit', resolve));
  }

  /**
   * Starts caddy on `caddyfile` (its text as shipped) with `env`, from which Caddy reads its
   * {$VARIABLES}; resolves once it serves.
   */
  static async start(dir: string, caddyfile: string, env: Record<string, string>): Promise<CaddyProcess> {
    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    const config = join(dir, 'Caddyfile');
    const local = ['admin off', 'skip_install_trust', 'local_certs', `http_port ${httpPort}`, `https_port ${httpsPort}`];
    writeFileSync(config, withGlobalOptions(caddyfile, [...local, `storage file_system ${join(dir, 'storage')}`]));
    const child = spawn(CADDY, ['run', '--config', config, '--adapter', 'caddyfile'], {
      env: { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const caddy = new CaddyProcess(child, httpPort, httpsPort, dir);
    const deadline = Date.now() + 20_000;
    while (!/serving initial configuration|server running/.test(caddy.output)) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`caddy did not start:\n${caddy.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return caddy;
  }

  get log(): string {
    return this.output;
  }

  /** The root certificate of Caddy's own CA (PEM), which signs every certificate it serves here. */
  rootCertificate(): string {
    const path = join(this.dir, 'storage', 'pki', 'authorities', 'local', 'root.crt');
    if (!existsSync(path)) throw new Error(`caddy has no local CA at ${path}:\n${this.output}`);
    return readFileSync(path, 'utf8');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    await this.exit;
  }
}

export type Answer = { status: number; headers: IncomingHttpHeaders; body: string } | { error: string };

export interface CaddyRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * A request to Caddy's HTTPS port as a client on `hostname` sends it (SNI and Host), trusting only
 * `ca`: the certificate must be valid for the name. A failed handshake resolves to `{ error }`.
 */
export function httpsTo(port: number, hostname: string, ca: string, request: CaddyRequest): Promise<Answer> {
  return send(port, hostname, request, (options, answer) => httpsRequest({ ...options, servername: hostname, ca }, answer));
}

/** The same over plain HTTP (Caddy's port 80). */
export function httpTo(port: number, hostname: string, request: CaddyRequest): Promise<Answer> {
  return send(port, hostname, request, (options, answer) => httpRequest(options, answer));
}

type Opener = (
  options: { host: string; port: number; method: string; path: string; headers: Record<string, string>; timeout: number },
  answer: (response: import('node:http').IncomingMessage) => void,
) => import('node:http').ClientRequest;

function send(port: number, hostname: string, request: CaddyRequest, open: Opener): Promise<Answer> {
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const headers: Record<string, string> = {
    host: hostname,
    'user-agent': 'Mozilla/5.0 (production topology test)',
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...request.headers,
  };
  return new Promise((resolve) => {
    const outgoing = open({ host: '127.0.0.1', port, method: request.method ?? 'GET', path: request.path, headers, timeout: 10_000 }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    outgoing.on('error', (error) => resolve({ error: error.message }));
    outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')));
    outgoing.end(body);
  });
}
