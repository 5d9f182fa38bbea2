import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * How the proxy treats traffic:
 * - `pass`: everything flows;
 * - `refuse`: the server is gone: existing connections are closed (FIN) and new ones refused (ECONNREFUSED);
 * - `reset`: existing connections are reset (RST), and so is every new one, right after it is accepted;
 * - `black-hole`: nothing passes either way, existing connections stay open and new ones are accepted
 *   but never reach the server, as when a network path silently drops every packet;
 * - `freeze-existing-links`: the connections open at the cut stop passing bytes for good (a NAT or
 *   firewall that dropped their state, a failover), while new connections reach the server and work.
 */
export type OutageMode = 'pass' | 'refuse' | 'reset' | 'black-hole' | 'freeze-existing-links';
export const OUTAGE_MODES = ['refuse', 'reset', 'black-hole', 'freeze-existing-links'] as const satisfies readonly OutageMode[];

/** One proxied connection: the client's socket and, once connected, the server's. */
interface Link {
  client: Socket;
  upstream: Socket | null;
  /** Frozen links never pass a byte again, restore or not: the state that carried them is gone. */
  dead: boolean;
  /** Whether bytes flow now (piped both ways): a second pipe would send every byte twice. */
  flowing: boolean;
}

/**
 * A TCP proxy in front of a real server (Redis, PostgreSQL) that a test can break in the ways a
 * network or a server breaks (OutageMode), for one app, without touching the server that other
 * test files share. `restore()` lets traffic flow again: links held by a black hole resume,
 * links frozen by `freeze-existing-links` stay dead.
 */
export class TcpOutageProxy {
  private server: Server | null = null;
  private readonly links = new Set<Link>();
  private current: OutageMode = 'pass';
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  /** A proxy for the server of `url`; `proxiedUrl()` is the same URL pointed at the proxy. */
  static forUrl(url: string, defaultPort: number): TcpOutageProxy & { proxiedUrl(): string } {
    const parsed = new URL(url);
    const proxy = new TcpOutageProxy({ host: parsed.hostname, port: Number(parsed.port || defaultPort) });
    return Object.assign(proxy, { proxiedUrl: () => proxy.through(url) });
  }

  /** `url` (any URL of the proxied server) pointed at this proxy. */
  through(url: string): string {
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String(this.port);
    return through.toString();
  }

  get mode(): OutageMode {
    return this.current;
  }

  /** Connections currently open through the proxy (their client side). */
  get openLinks(): number {
    return this.links.size;
  }

  async start(port = 0): Promise<void> {
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as { port: number }).port;
  }

  /** Switches to `mode` (see OutageMode); `pass` is `restore()`. */
  async set(mode: OutageMode): Promise<void> {
    if (mode === 'pass') return this.restore();
    this.current = mode;
    if (mode === 'refuse') {
      const stopped = this.stopListening();
      for (const link of this.links) this.end(link);
      await stopped;
    } else if (mode === 'reset') {
      for (const link of this.links) this.reset(link);
    } else {
      for (const link of this.links) {
        this.hold(link);
        if (mode === 'freeze-existing-links') link.dead = true;
      }
    }
  }

  /** Drops every connection and refuses new ones, as a stopped server would (`refuse`). */
  cut(): Promise<void> {
    return this.set('refuse');
  }

  /** Traffic flows again: listening again if refused, held links resume; frozen links stay dead. */
  async restore(): Promise<void> {
    this.current = 'pass';
    if (!this.server) await this.start(this.port);
    for (const link of this.links) if (!link.dead) this.flow(link);
  }

  /** Resets the links `freeze-existing-links` left dead, so that what still waits on them fails (end of a test). */
  resetDeadLinks(): void {
    for (const link of this.links) if (link.dead) this.reset(link);
  }

  /** Closes every connection and stops listening (end of a test). */
  async close(): Promise<void> {
    this.current = 'refuse';
    const stopped = this.stopListening();
    for (const link of this.links) this.reset(link);
    await stopped;
  }

  private accept(client: Socket): void {
    const link: Link = { client, upstream: null, dead: false, flowing: false };
    this.links.add(link);
    client.on('error', () => client.destroy());
    client.on('close', () => {
      this.links.delete(link);
      link.upstream?.destroy();
    });
    if (this.current === 'reset') return this.reset(link);
    if (this.current === 'refuse') return this.end(link);
    if (this.current === 'black-hole') return this.hold(link);
    this.flow(link);
  }

  /** Connects the link to the server (once) and lets bytes flow both ways. */
  private flow(link: Link): void {
    if (link.flowing) return;
    link.flowing = true;
    if (!link.upstream) {
      const upstream = createConnection(this.target);
      link.upstream = upstream;
      upstream.on('error', () => upstream.destroy());
      upstream.on('close', () => link.client.destroy());
    }
    link.client.pipe(link.upstream);
    link.upstream.pipe(link.client);
    link.client.resume();
    link.upstream.resume();
  }

  /** Stops reading both sides: bytes wait in the kernel's buffers, nothing reaches the other side. */
  private hold(link: Link): void {
    link.flowing = false;
    link.client.unpipe();
    link.client.pause();
    if (link.upstream) {
      link.upstream.unpipe();
      link.upstream.pause();
    }
  }

  private end(link: Link): void {
    link.upstream?.destroy();
    link.client.destroy();
  }

  private reset(link: Link): void {
    link.upstream?.resetAndDestroy();
    link.client.resetAndDestroy();
  }

  /** Stops accepting at once; resolves once every connection it accepted is closed (close them meanwhile). */
  private stopListening(): Promise<void> {
    const server = this.server;
    this.server = null;
    return new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
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
