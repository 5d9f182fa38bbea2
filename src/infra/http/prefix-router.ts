import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http';

/**
 * The app's one HTTP server, shared by more than one Fastify instance: a request under a mounted
 * path prefix goes to that instance's handler, any other to the main one (the API's). Unmounting
 * sends everything back to the main instance, which answers 503 while it closes: no request
 * reaches a mounted instance after the app began shutting down.
 */
export class PrefixRouter {
  private mounts: Array<{ prefix: string; listener: RequestListener }> = [];

  /** `serverOptions`: Node's timeouts and limits of the one server (Fastify does not apply its own to a server it did not create). */
  constructor(private readonly serverOptions: ServerOptions = {}) {}

  /** A Fastify serverFactory: the server that the main instance listens on. */
  readonly serverFor = (main: (request: IncomingMessage, response: ServerResponse) => void): Server =>
    createServer(this.serverOptions, (request, response) => {
      for (const mount of this.mounts) {
        if (request.url?.startsWith(mount.prefix)) return mount.listener(request, response);
      }
      main(request, response);
    });

  mount(prefix: string, listener: RequestListener): void {
    this.mounts = [...this.mounts, { prefix, listener }];
  }

  unmountAll(): void {
    this.mounts = [];
  }
}
