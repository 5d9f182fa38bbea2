import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, type PathItemObject, SwaggerModule } from '@nestjs/swagger';
import { ADMIN_TOKEN_SCHEME, API_KEY_SCHEME } from '../../common/openapi/security-schemes';
import type { AppConfig } from '../../config/app-config';
import { leaveParametersBlank } from './blank-parameters';
import { closeRequestSchemas } from './closed-request-schemas';
import { describeRequiredScopes } from './required-scopes';

const DESCRIPTION = [
  'Create, style, render, track and manage static and dynamic QR codes.',
  '',
  "Authenticate every `/api/v1` call with the `X-API-Key` header (click **Authorize**); the admin endpoints take the deployment's",
  '`X-Admin-Token` instead. The key is never read from the query string.',
  '',
  'Every JSON response carries `request_id` (also in the `X-Request-Id` header). Every error answers one shape:',
  '`{"statusCode", "error", "message", "errors"?: [{"field", "message"}], "request_id"}`, with `errors` naming each offending',
  'field of a validation failure. Writes (create, bulk, update, delete) and reads have separate per-account rate limits;',
  'a 429 carries `Retry-After` and `X-RateLimit-Limit/Remaining/Reset`.',
].join('\n');

/**
 * The OpenAPI document the service publishes at /docs-json and `npm run openapi` writes: the API's
 * routes as Nest describes them, plus the redirect host's route, which is a Fastify instance of its
 * own and so invisible to Nest.
 */
export function buildOpenApiDocument(app: INestApplication, config: Pick<AppConfig, 'baseUrl' | 'redirectUrl'>): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('QR code management API')
      .setDescription(DESCRIPTION)
      .setVersion('1')
      .setLicense('MIT', 'https://opensource.org/licenses/MIT')
      // Relative first: Swagger UI's "Try it out" calls the origin the page was loaded from, whatever
      // address the reader typed (127.0.0.1 or localhost); a call to another origin is cross-origin and blocked.
      .addServer('/', 'The origin this document was loaded from')
      .addServer(config.baseUrl, 'This deployment (BASE_URL)')
      .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key: `qr_live_…`' }, API_KEY_SCHEME)
      .addApiKey(
        { type: 'apiKey', in: 'header', name: 'X-Admin-Token', description: "The deployment's ADMIN_TOKEN (the admin API answers 404 without one)" },
        ADMIN_TOKEN_SCHEME,
      )
      .addSecurityRequirements(API_KEY_SCHEME)
      .addTag('qrcodes', 'QR codes: create, bulk create, list, get, update, delete, image, scan analytics and destination history')
      .addTag('analytics', 'Account-wide scan analytics: totals, series, top codes and breakdowns over every code, a folder or a type')
      .addTag('folders', 'Folders to group QR codes')
      .addTag('tags', "Tags: an account's labels of its codes, many per code; rename, merge and delete (docs/tags-and-bulk-edits.md)")
      .addTag('brand-kits', 'Brand kits: a style, frame and logo codes are drawn with, under their own style (docs/brand-kits.md)')
      .addTag(
        'gs1',
        'GS1 Digital Link items and their links, answered by the GS1-conformant resolver; their codes for print (docs/gs1-digital-link.md)',
      )
      .addTag('domains', 'Branded domains: short links on your own hostname, proven by a DNS TXT record, served over HTTPS (docs/domains-and-tls.md)')
      .addTag('styles', 'Style checks: whether a style is accepted, and how it will be drawn and scanned')
      .addTag('redirect', 'The redirect host: the short links dynamic codes encode (REDIRECT_URL; no key)')
      .addTag(
        'webhooks',
        'Webhook endpoints: signed event deliveries (codes created, updated, deleted, scanned), the delivery log, redelivery and replay',
      )
      .addTag(
        'sharing',
        'Public stats pages (share links) and signed image links for <img>: read-only, revocable, no key needed by the viewer (docs/sharing.md)',
      )
      .addTag('api-keys', "The account's own API keys: scoped, folder-restricted and expiring keys, managed with keys:write")
      .addTag('audit', 'The audit log: one entry per write through the API, who made it and what changed')
      .addTag('exports', 'ZIP exports of QR codes as image files, made by a background job (exports:write, exports:read)')
      .addTag('imports', 'CSV imports of QR codes, checked and created row by row by a background job (imports:write, imports:read)')
      .addTag('admin', 'API keys, with the X-Admin-Token')
      .build(),
  );
  document.paths['/r/{short_code}'] = redirectHostPath(config.redirectUrl);
  describeRequiredScopes(document);
  return closeRequestSchemas(leaveParametersBlank(document));
}

const HTML_PAGE = { 'text/html': { schema: { type: 'string' as const, example: '<!doctype html><html lang="en">…</html>' } } };

function redirectHostPath(redirectUrl: string): PathItemObject {
  return {
    // The redirect host also answers on the API's port (PrefixRouter), so the page's own origin works in Swagger UI.
    servers: [
      { url: '/', description: 'The origin this document was loaded from' },
      { url: redirectUrl, description: 'The redirect host (REDIRECT_URL)' },
    ],
    get: {
      operationId: 'followShortLink',
      tags: ['redirect'],
      summary: "Follow a dynamic code's short link, as a phone does when it scans the code",
      description:
        'Served by the redirect host, without a key. A url code redirects to its target; every other type answers a small, ' +
        'mobile-friendly page (save a contact, add an event to a calendar, copy Wi-Fi credentials, call, text, mail, open a map, ' +
        'read a text). Each completed scan is counted; known link-preview bots are answered but not counted. Nothing is cached ' +
        '(Cache-Control: no-store).',
      security: [],
      parameters: [
        {
          name: 'short_code',
          in: 'path',
          required: true,
          description: 'The short code of a dynamic QR code (`short_code` in its representation)',
          schema: { type: 'string', example: 'aZ3kP9qL' },
        },
      ],
      responses: {
        '200': { description: 'Types other than url: the landing page', content: HTML_PAGE },
        '302': {
          description: 'url codes: a redirect to the target',
          headers: {
            Location: {
              description: 'The target URL',
              schema: { type: 'string', format: 'uri', example: 'https://example.com/spring-sale?utm_source=qr' },
            },
            'Cache-Control': { schema: { type: 'string', example: 'no-store' } },
          },
        },
        '404': { description: 'Unknown or deleted short code: a "not found" page', content: HTML_PAGE },
        '410': { description: 'A paused or expired code: a page saying so (not counted as a scan)', content: HTML_PAGE },
        '503': { description: 'The database is unreachable and the link is not in memory: a "try again" page', content: HTML_PAGE },
      },
    },
  };
}
