import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server (Redis, PostgreSQL) that a test can cut: `cut()` drops every
 * connection and refuses new ones, as a stopped server would; `restore()` accepts again. Lets a
 * test stop the service for one app without touching the server other test files share.
 */
export class TcpOutageProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  /** A proxy for the server of `url`; `url` of the proxy is the same URL pointed at the proxy. */
  static forUrl(url: string, defaultPort: number): TcpOutageProxy & { proxiedUrl(): string } {
    const parsed = new URL(url);
    const proxy = new TcpOutageProxy({ host: parsed.hostname, port: Number(parsed.port || defaultPort) });
    return Object.assign(proxy, {
      proxiedUrl: () => {
        const through = new URL(url);
        through.hostname = '127.0.0.1';
        through.port = String(proxy.port);
        return through.toString();
      },
    });
  }

  async start(port = 0): Promise<void> {
    this.server = createServer((client) => {
      const upstream = createConnection(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  async restore(): Promise<void> {
    if (!this.server) await this.start(this.port);
  }
}

/** Whether a Redis answers at url (tests needing a real Redis are skipped without one). */
export async function redisReachable(url: string): Promise<boolean> {
  const parsed = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: parsed.hostname, port: Number(parsed.port || 6379) });
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
