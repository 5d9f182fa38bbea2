import { type ChildProcess, spawn } from 'node:child_process';

/**
 * A webhook receiver in a process of its own (as a real one would be: it does not share the app's
 * event loop), on 127.0.0.1. Like a receiver built as Standard Webhooks advises, it acknowledges
 * at once and processes later: a body is kept as received, and read (deduped by webhook-id,
 * distinct scans of qrcode.scanned counted) when GET /stats asks. So on this shared 2-core machine
 * the receiver's JSON parsing, which a real deployment does elsewhere, does not run during the
 * measured loads (its CPU is reported as `helper`).
 */
const RECEIVER = `
const http = require('node:http');
const ids = new Set();
const scans = new Set();
let requests = 0;
let firstAt = 0;
let lastAt = 0;
/** Bodies received and not yet read. */
let pending = [];
const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    readPending();
    res.setHeader('content-type', 'application/json');
    return res.end(JSON.stringify({ requests, ids: ids.size, scans: scans.size, firstAt, lastAt }));
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    requests++;
    lastAt = Date.now();
    if (!firstAt) firstAt = lastAt;
    pending.push({ id: req.headers['webhook-id'], chunks });
    res.end('ok');
  });
});
function readPending() {
  for (const { id, chunks } of pending) {
    if (ids.has(id)) continue;
    ids.add(id);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (body.type === 'qrcode.scanned') for (const scan of body.data.scans) scans.add(scan.id);
  }
  pending = [];
}
server.keepAliveTimeout = 60000;
server.listen(Number(process.argv[1]), '127.0.0.1', () => process.send ? process.send('up') : console.log('up'));
`;

export interface ReceiverStats {
  requests: number;
  ids: number;
  scans: number;
  firstAt: number;
  lastAt: number;
}

export class ReceiverProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async start(port: number): Promise<ReceiverProcess> {
    const child = spawn(process.execPath, ['-e', RECEIVER, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`receiver exited (${code})`)));
    });
    return new ReceiverProcess(child, `http://127.0.0.1:${port}/hook`);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  async stats(): Promise<ReceiverStats> {
    return (await fetch(this.url)).json() as Promise<ReceiverStats>;
  }

  /** Waits until `done(stats)` or `timeoutMs` passes; returns the last stats. */
  async until(done: (stats: ReceiverStats) => boolean, timeoutMs: number): Promise<ReceiverStats> {
    const deadline = Date.now() + timeoutMs;
    let stats = await this.stats();
    while (!done(stats) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stats = await this.stats();
    }
    return stats;
  }

  stop(): void {
    this.child.kill();
  }
}
