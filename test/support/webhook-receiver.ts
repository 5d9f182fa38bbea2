import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver answers a request with (a status, and a body). */
export type Responder = (received: ReceivedWebhook, index: number) => { status: number; body?: string; headers?: Record<string, string> };

/**
 * A real local HTTP server receiving webhooks, for the e2e tests: it keeps every request (headers
 * and raw body) and answers as `respond` says (200 by default). `stop()` closes the port so that
 * deliveries fail to connect; `start()` opens it again on the same port.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  respond: Responder = () => ({ status: 200, body: '{"ok":true}' });
  /** Each answer waits this long (a slow receiver). */
  delayMs = 0;
  /** The most requests it was answering at once. */
  maxConcurrent = 0;
  private concurrent = 0;
  private readonly pending = new Set<NodeJS.Timeout>();
  private server?: Server;
  private portNumber = 0;

  get port(): number {
    return this.portNumber;
  }

  url(path = '/hook', host = '127.0.0.1'): string {
    return `http://${host}:${this.portNumber}${path}`;
  }

  async start(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      this.concurrent++;
      this.maxConcurrent = Math.max(this.maxConcurrent, this.concurrent);
      request.on('end', () => {
        const received = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        this.received.push(received);
        const answer = this.respond(received, this.received.length - 1);
        const timer = setTimeout(() => {
          this.pending.delete(timer);
          this.concurrent--;
          response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
          response.end(answer.body ?? '');
        }, this.delayMs);
        this.pending.add(timer);
      });
    });
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => server.listen(this.portNumber, '127.0.0.1', resolve));
    this.portNumber = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
    this.concurrent = 0;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Requests whose body has this type. */
  ofType(type: string): ReceivedWebhook[] {
    return this.received.filter((received) => (JSON.parse(received.body) as { type: string }).type === type);
  }
}
