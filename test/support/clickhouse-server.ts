import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './service-process';

const SERVER_BINARIES = ['/usr/bin/clickhouse-server', '/usr/sbin/clickhouse-server', '/usr/bin/clickhouse'];

/** The clickhouse-server binary found on this machine (Debian's package, or an upstream install), or undefined. */
export function clickHouseServerBinary(): string | undefined {
  const explicit = process.env.CLICKHOUSE_SERVER_BIN;
  if (explicit) return existsSync(explicit) ? explicit : undefined;
  return SERVER_BINARIES.find((path) => existsSync(path));
}

/** Whether a clickhouse-server can be started here (tests that need one are declared with it: skipped, never passed, without). */
export const hasClickHouseServer = clickHouseServerBinary() !== undefined;

/**
 * A clickhouse-server of the test's own: its data, logs and configuration in a temporary folder,
 * on free ports (HTTP, native TCP, interserver), listening on 127.0.0.1 only. The configuration is
 * the least both Debian's 18.16 and current releases accept. Stop and start it again (same folder,
 * same ports) to test an outage; `close` ends it and removes the folder.
 */
export class ClickHouseTestServer {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private output = '';

  private constructor(
    readonly dir: string,
    readonly httpPort: number,
  ) {}

  /** `http://127.0.0.1:<port>/<database>`: what CLICKHOUSE_URL is set to. */
  url(database = 'default'): string {
    return `http://127.0.0.1:${this.httpPort}/${database}`;
  }

  static async start(): Promise<ClickHouseTestServer> {
    const dir = mkdtempSync(join(tmpdir(), 'qr-clickhouse-'));
    const [httpPort, tcpPort, interserverPort] = [await freePort(), await freePort(), await freePort()];
    for (const sub of ['data', 'tmp', 'user_files', 'format_schemas', 'log']) mkdirSync(join(dir, sub));
    writeFileSync(join(dir, 'config.xml'), serverConfig(dir, httpPort, tcpPort, interserverPort));
    writeFileSync(join(dir, 'users.xml'), USERS_CONFIG);
    const server = new ClickHouseTestServer(dir, httpPort);
    await server.resume();
    return server;
  }

  /** Starts the server (again) and waits until it answers /ping. */
  async resume(withinMs = 30_000): Promise<void> {
    const binary = clickHouseServerBinary();
    if (!binary) throw new Error('no clickhouse-server on this machine (apt-get install clickhouse-server)');
    const args = [...(binary.endsWith('/clickhouse') ? ['server'] : []), `--config-file=${join(this.dir, 'config.xml')}`];
    const child = spawn(binary, args, { cwd: this.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    this.child = child;
    const deadline = Date.now() + withinMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`clickhouse-server exited at start (${child.exitCode}):\n${this.output.slice(-4000)}`);
      const ok = await fetch(`http://127.0.0.1:${this.httpPort}/ping`, { signal: AbortSignal.timeout(500) }).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await this.stop();
    throw new Error(`clickhouse-server did not answer within ${withinMs} ms:\n${this.output.slice(-4000)}`);
  }

  /** Ends the server (SIGTERM, then SIGKILL after 10 s); its data stays for `resume`. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(killer);
    this.child = null;
  }

  /** One statement over HTTP, its text answer (TabSeparated unless the statement says otherwise). */
  async query(statement: string): Promise<string> {
    const res = await fetch(`http://127.0.0.1:${this.httpPort}/`, { method: 'POST', body: statement });
    const text = await res.text();
    if (!res.ok) throw new Error(`ClickHouse ${res.status}: ${text}`);
    return text;
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function serverConfig(dir: string, httpPort: number, tcpPort: number, interserverPort: number): string {
  return `<?xml version="1.0"?>
<yandex>
  <logger>
    <level>warning</level>
    <log>${join(dir, 'log', 'server.log')}</log>
    <errorlog>${join(dir, 'log', 'error.log')}</errorlog>
    <size>10M</size>
    <count>1</count>
  </logger>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <interserver_http_port>${interserverPort}</interserver_http_port>
  <listen_host>127.0.0.1</listen_host>
  <max_connections>64</max_connections>
  <keep_alive_timeout>3</keep_alive_timeout>
  <max_concurrent_queries>32</max_concurrent_queries>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <mark_cache_size>67108864</mark_cache_size>
  <path>${join(dir, 'data')}/</path>
  <tmp_path>${join(dir, 'tmp')}/</tmp_path>
  <user_files_path>${join(dir, 'user_files')}/</user_files_path>
  <format_schema_path>${join(dir, 'format_schemas')}/</format_schema_path>
  <users_config>${join(dir, 'users.xml')}</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mlock_executable>false</mlock_executable>
</yandex>
`;
}

const USERS_CONFIG = `<?xml version="1.0"?>
<yandex>
  <profiles>
    <default>
      <max_memory_usage>1000000000</max_memory_usage>
    </default>
  </profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <quotas>
    <default>
      <interval>
        <duration>3600</duration>
        <queries>0</queries>
        <errors>0</errors>
        <result_rows>0</result_rows>
        <read_rows>0</read_rows>
        <execution_time>0</execution_time>
      </interval>
    </default>
  </quotas>
</yandex>
`;
