import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../common/http/error-body';
import { CLOCK, type Clock } from '../common/time/clock';
import type { FieldError } from '../common/validation/field-error';
import type { ServedDomain } from '../domains';
import { HostRoutes, sendHostPage } from '../redirect/host-routes';
import { NOT_FOUND_PAGE } from '../redirect/landing/status-pages';
import { ImageLinkServing } from './image-link-serving';
import { STATS_PAGE_SCRIPT_HASH } from './stats-page/stats-page';
import { StatsPagesService } from './stats-pages.service';

/** The stats page's policy: its one inline script (by hash), its inline styles and SVG, nothing loaded from elsewhere. */
const STATS_PAGE_CSP =
  `default-src 'none'; script-src '${STATS_PAGE_SCRIPT_HASH}'; style-src 'unsafe-inline'; img-src data:; ` +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const JSON_SUFFIX = '.json';

type TokenRequest = FastifyRequest<{ Params: { token: string }; Querystring: Record<string, unknown> }>;

/**
 * The public answers of sharing on the redirect host (docs/sharing.md): `/s/<token>` (and
 * `.json`), `/i/<token>`, on the service's own host and on branded domains. A branded domain
 * answers only its own account's links.
 */
@Injectable()
export class ShareHostRoutes {
  constructor(
    routes: HostRoutes,
    private readonly stats: StatsPagesService,
    private readonly images: ImageLinkServing,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    routes.add(
      {
        method: ['GET', 'HEAD'],
        url: '/s/:token',
        defaultHostPrefix: '/s/',
        handler: (request, reply, domain) => this.statsPage(request as TokenRequest, reply, domain),
      },
      {
        method: ['GET', 'HEAD'],
        url: '/i/:token',
        defaultHostPrefix: '/i/',
        handler: (request, reply, domain) => this.image(request as TokenRequest, reply, domain),
      },
    );
  }

  private async statsPage(request: TokenRequest, reply: FastifyReply, domain: ServedDomain | null): Promise<FastifyReply> {
    reply.header('cache-control', 'no-store');
    const json = request.params.token.endsWith(JSON_SUFFIX);
    const token = json ? request.params.token.slice(0, -JSON_SUFFIX.length) : request.params.token;
    const now = this.clock.now();
    const link = await this.stats.standingLink(token, now);
    if (!link || (domain && domain.accountId !== link.accountId))
      return json ? sendError(reply, request.id, 404, 'Not found') : sendHostPage(reply, 404, NOT_FOUND_PAGE);
    const answer = await this.stats.answer(link, token, request.query, json ? 'json' : 'html', now);
    if (answer.kind === 'invalid') return sendError(reply, request.id, 400, `Invalid query: ${answer.errors[0].message}`, answer.errors);
    if (answer.kind === 'json')
      return reply.status(200).header('content-type', 'application/json; charset=utf-8').header('access-control-allow-origin', '*').send(answer.body);
    if (answer.kind === 'page') return sendHostPage(reply, 200, answer.html, STATS_PAGE_CSP);
    return sendHostPage(reply, 404, NOT_FOUND_PAGE);
  }

  private async image(request: TokenRequest, reply: FastifyReply, domain: ServedDomain | null): Promise<FastifyReply> {
    const parameters = Object.keys(request.query ?? {});
    if (parameters.length > 0) {
      const errors = parameters.map((name) => ({ field: name, message: `${name} is not a parameter of an image link: everything is in its token` }));
      return sendError(reply.header('cache-control', 'no-store'), request.id, 400, errors[0].message, errors);
    }
    const answer = await this.images.answer(request.params.token, request.headers['if-none-match'], this.clock.now(), domain?.accountId ?? null);
    if (answer.kind === 'not_found') return sendError(reply.header('cache-control', 'no-store'), request.id, 404, 'Image link not found');
    if (answer.kind === 'gone')
      return sendError(reply.header('cache-control', 'no-store'), request.id, 410, 'This image link was revoked or has expired');
    reply
      .header('cache-control', `public, max-age=${answer.maxAgeSeconds}`)
      .header('etag', answer.etag)
      .header('content-type', answer.contentType)
      .header('content-security-policy', "default-src 'none'; img-src data:")
      .header('x-content-type-options', 'nosniff')
      .header('access-control-allow-origin', '*');
    return answer.bytes === null ? reply.status(304).send() : reply.status(200).send(answer.bytes);
  }
}

function sendError(reply: FastifyReply, requestId: string, status: number, message: string, errors?: FieldError[]): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'application/json; charset=utf-8')
    .send(errorBody(status, message, requestId, errors));
}
