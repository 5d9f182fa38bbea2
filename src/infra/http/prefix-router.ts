import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http';

/**
 * The app's one HTTP server, shared by more than one Fastify instance: a request under a mounted
 * path prefix goes to that instance's handler, any other to the main one (the API's). Unmounting
 * sends everything back to the main instance, which answers 503 while it closes: no request
 * reaches a mounted instance after the app began shutting down.
 */
/** Chooses a listener for a request before the prefixes do (null: the prefixes decide), at once or once it has looked something up. */
export type RequestDispatch = (request: IncomingMessage) => RequestListener | null | Promise<RequestListener | null>;

export class PrefixRouter {
  private mounts: Array<{ prefix: string; listener: RequestListener }> = [];
  private dispatch: RequestDispatch | null = null;

  /** `serverOptions`: Node's timeouts and limits of the one server (Fastify does not apply its own to a server it did not create). */
  constructor(private readonly serverOptions: ServerOptions = {}) {}

  /** A Fastify serverFactory: the server that the main instance listens on. */
  readonly serverFor = (main: (request: IncomingMessage, response: ServerResponse) => void): Server =>
    createServer(this.serverOptions, (request, response) => {
      const chosen = this.dispatch?.(request);
      if (!chosen) return this.byPrefix(request, response, main);
      if (typeof chosen === 'function') return chosen(request, response);
      void chosen.then((listener) => (listener ? listener(request, response) : this.byPrefix(request, response, main)));
    });

  private byPrefix(request: IncomingMessage, response: ServerResponse, main: (request: IncomingMessage, response: ServerResponse) => void): void {
    for (const mount of this.mounts) {
      if (request.url?.startsWith(mount.prefix)) return mount.listener(request, response);
    }
    main(request, response);
  }

  /** Consulted first for every request (the redirect host's dispatch by Host header); it must not reject. */
  dispatchFirst(dispatch: RequestDispatch): void {
    this.dispatch = dispatch;
  }

  mount(prefix: string, listener: RequestListener): void {
    this.mounts = [...this.mounts, { prefix, listener }];
  }

  unmountAll(): void {
    this.mounts = [];
    this.dispatch = null;
  }
}
