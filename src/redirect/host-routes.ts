import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { ServedDomain } from '../domains';
import { PAGE_CSP } from './landing/page-style';

/**
 * A route of the redirect host that a capability adds (stats pages, image links, previews and
 * reports, app-link files, ...; the GS1 resolver is a host of its own, gs1-host.ts): the host answers it on every branded domain and,
 * when it names a `defaultHostPrefix`, on the service's own host under that prefix. The handler
 * gets the branded domain the request came in on (null: the service's own host) and sends the
 * answer itself; the host adds the request id and observes its duration under `url`.
 */
export interface HostRoute {
  method: HTTPMethods | HTTPMethods[];
  /** The path, in Fastify's syntax (`/s/:token`). */
  url: string;
  /** The path prefix (`/s/`) the server hands to the redirect host on its own host; none: branded domains only. */
  defaultHostPrefix?: string;
  /** Request body limit in bytes (forms); default: the host's. */
  bodyLimit?: number;
  handler: (request: FastifyRequest, reply: FastifyReply, domain: ServedDomain | null) => unknown;
}

/**
 * The one place capabilities register their redirect-host routes (in their constructors); the app
 * builds the host from it (createRedirectHost) and mounts the default-host prefixes (createApp).
 */
@Injectable()
export class HostRoutes {
  private readonly routes: HostRoute[] = [];

  add(...routes: HostRoute[]): void {
    this.routes.push(...routes);
  }

  all(): readonly HostRoute[] {
    return this.routes;
  }

  /** The prefixes of the service's own host that belong to the redirect host, besides /r/. */
  defaultHostPrefixes(): string[] {
    return [...new Set(this.routes.flatMap((route) => route.defaultHostPrefix ?? []))];
  }
}

/** An HTML page of the redirect host, with its security headers (no script unless `csp` allows one). */
export function sendHostPage(reply: FastifyReply, status: number, html: string | Buffer, csp = PAGE_CSP): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', csp)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex, nofollow')
    .send(html);
}
