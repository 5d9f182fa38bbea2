import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPOSITORY_ROOT } from './environment';
import { freePort } from './free-port';

/** The instructions of the Dockerfile that decide how the container runs, as exec-form argument lists. */
export interface ImageInstructions {
  baseImages: string[];
  entrypoint: string[];
  cmd: string[];
  healthcheck: string[];
  /** Every line of the runtime stage (after its FROM), for checks of ENV, RUN and USER. */
  runtimeStage: string[];
}

export function readDockerfile(): ImageInstructions {
  const lines = readFileSync(join(REPOSITORY_ROOT, 'Dockerfile'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'));
  const instruction = (name: string) => lines.find((line) => line.startsWith(`${name} `));
  const execForm = (name: string, text: string | undefined): string[] => {
    if (!text?.trim().startsWith('[')) throw new Error(`Dockerfile: ${name} is missing or not in exec form (a JSON array)`);
    return JSON.parse(text) as string[];
  };
  const lastFrom = lines.map((line) => line.startsWith('FROM ')).lastIndexOf(true);
  return {
    baseImages: lines.filter((line) => line.startsWith('FROM ')).map((line) => line.split(/\s+/)[1]),
    entrypoint: execForm('ENTRYPOINT', instruction('ENTRYPOINT')?.slice('ENTRYPOINT '.length)),
    cmd: execForm('CMD', instruction('CMD')?.slice('CMD '.length)),
    healthcheck: execForm('HEALTHCHECK', instruction('HEALTHCHECK')?.split(' CMD ')[1]),
    runtimeStage: lines.slice(lastFrom + 1),
  };
}

export interface BuiltService {
  process: ChildProcess;
  port: number;
  url: string;
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Only what the service needs from the test's environment; the rest (its DATABASE_URL, REDIS_URL) must not leak in. */
function serviceEnvironment(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, TZ: 'UTC', LOG_LEVEL: 'warn', ...env };
}

/**
 * Starts the built service as the image does: the Dockerfile's ENTRYPOINT with its CMD, from the
 * repository root (the image's WORKDIR holds the same dist/ and docker/), and waits until
 * /health/ready answers 200.
 */
export async function startBuiltService(env: Record<string, string>): Promise<BuiltService> {
  const { entrypoint, cmd } = readDockerfile();
  const port = await freePort();
  const [command, ...args] = [...entrypoint, ...cmd];
  const child = spawn(command, args, {
    cwd: REPOSITORY_ROOT,
    env: serviceEnvironment({ PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const service: BuiltService = { process: child, port, url: `http://127.0.0.1:${port}`, stdout: () => stdout, stderr: () => stderr, exited };

  const deadline = Date.now() + 60_000;
  let ended = false;
  void exited.then(() => (ended = true));
  while (Date.now() < deadline && !ended) {
    const ready = await fetch(`${service.url}/health/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return service;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`The built service did not get ready.\nstdout:\n${stdout}\nstderr:\n${stderr}`);
}

/** Runs the Dockerfile's HEALTHCHECK command as Docker would, with `env`; resolves to its exit code. */
export async function runHealthcheck(env: Record<string, string>): Promise<number> {
  const [command, ...args] = readDockerfile().healthcheck;
  try {
    await promisify(execFile)(command, args, { cwd: REPOSITORY_ROOT, env: serviceEnvironment(env), timeout: 10_000 });
    return 0;
  } catch (error) {
    return (error as { code?: number }).code ?? 1;
  }
}

/** Runs `npm run cli -- ...args` as package.json defines it (without npm, whose own warnings would mix with the CLI's output). */
export async function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = (JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.cli;
  const [command, ...scriptArgs] = script.split(' ');
  try {
    const { stdout, stderr } = await promisify(execFile)(command, [...scriptArgs, ...args], {
      cwd: REPOSITORY_ROOT,
      env: serviceEnvironment(env),
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
