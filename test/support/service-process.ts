import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'main.js');

/** Newest modification time of the files under dir (recursively), in ms. */
function newestChange(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** The built service (`npm run build`): built here when dist/main.js is missing or older than src/. */
export function ensureBuilt(): string {
  if (!existsSync(MAIN) || statSync(MAIN).mtimeMs < newestChange(join(ROOT, 'src'))) {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
  }
  return MAIN;
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The built service running as a child process (`node dist/main.js`), as an operator runs it. */
export class ServiceProcess {
  private output = '';
  private exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly origin: string;

  private constructor(
    private readonly child: ChildProcess,
    port: number,
  ) {
    this.origin = `http://127.0.0.1:${port}`;
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /**
   * Starts `node dist/main.js` with exactly `env` (plus PATH) and waits until /health/ready answers
   * 200; `nodeOptions` go before the script (`--cpu-prof`, which NODE_OPTIONS does not take).
   */
  static async start(env: Record<string, string>, readyWithinMs = 30_000, nodeOptions: string[] = []): Promise<ServiceProcess> {
    const main = ensureBuilt();
    const child = spawn(process.execPath, [...nodeOptions, main], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', TZ: 'UTC', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(child, Number(env.PORT));
    const deadline = Date.now() + readyWithinMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the service exited at start (${child.exitCode}):\n${service.output}`);
      const ready = await fetch(`${service.origin}/health/ready`, { signal: AbortSignal.timeout(1000) }).then(
        (res) => res.status,
        () => 0,
      );
      if (ready === 200) return service;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    child.kill('SIGKILL');
    throw new Error(`the service was not ready within ${readyWithinMs} ms:\n${service.output}`);
  }

  /** Everything it wrote to stdout and stderr so far. */
  get log(): string {
    return this.output;
  }

  /** The API key it printed at its first start (none existed). */
  get firstKey(): string | undefined {
    return /X-API-Key: (qr_live_\w+)/.exec(this.output)?.[1];
  }

  /** The child's process id (for a bench that lowers a worker's CPU priority). */
  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends `signal` and waits up to `withinMs` for the exit: the milliseconds it took, or null (then it is killed). */
  async stop(signal: NodeJS.Signals, withinMs: number): Promise<{ ms: number | null; code: number | null }> {
    const sent = Date.now();
    this.child.kill(signal);
    const exited = await Promise.race([this.exit, new Promise<null>((resolve) => setTimeout(() => resolve(null), withinMs))]);
    if (exited) return { ms: Date.now() - sent, code: exited.code };
    this.child.kill('SIGKILL');
    await this.exit;
    return { ms: null, code: null };
  }

  /** Ends it, whatever state it is in (end of a test). */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await this.exit;
  }
}
