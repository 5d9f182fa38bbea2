import fc from 'fast-check';
import { CONTENT_SAMPLES, NO_SUCH_ID, QR_TYPES, qrInput } from '../support/factories';
import { ADMIN_TOKEN } from '../support/test-app';
import {
  BAD_PERCENT,
  bodyFor,
  type BodySpec,
  hostileHeaderValue,
  hostileSegment,
  hostileString,
  hostileValue,
  mutatedBody,
  poisonedBody,
  queryString,
} from './hostile-input';

/** What a generated request is: sent through the app's HTTP listener as it stands. */
export interface FuzzRequest {
  method: string;
  /** Path and query, percent-encoded as sent. */
  url: string;
  headers: Record<string, string>;
  body?: BodySpec;
}

/** The records the fuzz suite works on (created before it starts). */
export interface FuzzContext {
  key: string;
  otherKey: string;
  /** Codes of the fuzzing account: a dynamic url code first, then other types. */
  codeIds: string[];
  /** Codes only the DELETE route may remove. */
  disposableCodeIds: string[];
  otherAccountCodeId: string;
  folderIds: string[];
  disposableFolderIds: string[];
  otherAccountFolderId: string;
  /** API keys only the admin DELETE route may revoke (never `key`). */
  disposableApiKeyIds: string[];
  accountId: string;
  /** Short codes: live url codes (hostile targets the service accepted included), landing pages, paused. */
  shortCodes: string[];
  /** Webhook endpoints of the fuzzing account (each with a delivery), and ones only the DELETE route may remove. */
  webhookIds: string[];
  disposableWebhookIds: string[];
  otherAccountWebhookId: string;
  /** Deliveries of webhookIds[0]. */
  deliveryIds: string[];
}

/**
 * Every route of the service (the controllers under src/ and the redirect host), plus unknown
 * paths, in the order the suite runs them: the DELETE routes last, since they remove what the
 * others work on.
 */
export const FUZZ_ROUTE_NAMES = [
  'POST /api/v1/qrcodes',
  'GET /api/v1/qrcodes',
  'GET /api/v1/qrcodes/:id',
  'PUT /api/v1/qrcodes/:id',
  'POST /api/v1/qrcodes/bulk',
  'GET /api/v1/qrcodes/:id/image',
  'GET /api/v1/qrcodes/:id/scans',
  'GET /api/v1/qrcodes/:id/scans.csv',
  'DELETE /api/v1/qrcodes/:id/scans',
  'GET /api/v1/analytics',
  'GET /api/v1/qrcodes/:id/history',
  'POST /api/v1/qrcodes/:id/history/:version/restore',
  'POST /api/v1/styles/check',
  'POST /api/v1/folders',
  'GET /api/v1/folders',
  'GET /api/v1/folders/:id',
  'PUT /api/v1/folders/:id',
  'POST /api/v1/admin/api-keys',
  'GET /api/v1/admin/api-keys',
  'GET /health/live',
  'GET /health/ready',
  'GET /metrics',
  'POST /api/v1/webhooks',
  'GET /api/v1/webhooks',
  'GET /api/v1/webhooks/:id',
  'PATCH /api/v1/webhooks/:id',
  'POST /api/v1/webhooks/:id/rotate-secret',
  'POST /api/v1/webhooks/:id/test',
  'GET /api/v1/webhooks/:id/deliveries',
  'GET /api/v1/webhooks/:id/deliveries/:delivery_id',
  'POST /api/v1/webhooks/:id/deliveries/:delivery_id/redeliver',
  'POST /api/v1/webhooks/:id/replay',
  'GET /r/:short_code',
  'GET /r/:short_code/:file',
  'any method, any path',
  'DELETE /api/v1/qrcodes/:id',
  'DELETE /api/v1/folders/:id',
  'DELETE /api/v1/admin/api-keys/:id',
  'DELETE /api/v1/webhooks/:id',
] as const;
export type FuzzRouteName = (typeof FUZZ_ROUTE_NAMES)[number];

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** Mostly the route's own method, sometimes another. */
const methodFor = (method: string) => fc.oneof({ weight: 12, arbitrary: fc.constant(method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) });

/** A path id: mostly one that exists (the caller's), else someone else's, a stranger, or hostile. */
function pathId(own: string[], ctx: FuzzContext, otherAccountId: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...own) },
    { weight: 1, arbitrary: fc.constantFrom(NO_SUCH_ID, otherAccountId, own[0].toUpperCase(), `${own[0]} `, `${own[0]}%00`, `${own[0]}.json`) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 3, arbitrary: hostileSegment },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_PERCENT) },
    { weight: 1, arbitrary: fc.integer({ min: 37, max: 3000 }).map((n) => `${ctx.codeIds[0]}${'a'.repeat(n)}`.slice(0, n)) },
  );
}

/** The API key header: mostly the fuzzing account's, sometimes missing, wrong, foreign or hostile. */
function apiKeyHeaders(ctx: FuzzContext): fc.Arbitrary<Record<string, string>> {
  const key = fc.oneof(
    { weight: 14, arbitrary: fc.constant<string | undefined>(ctx.key) },
    { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<string | undefined>(ctx.otherKey, `${ctx.key} `, ctx.key.toUpperCase(), 'qr_live_', `qr_live_${'A'.repeat(40)}`),
    },
    { weight: 1, arbitrary: hostileHeaderValue.map<string | undefined>((value) => value) },
  );
  return fc.tuple(key, commonHeaders).map(([value, common]) => (value === undefined ? common : { ...common, 'x-api-key': value }));
}

/** Headers every route may get: a request id (valid or hostile), Accept, an origin. */
const commonHeaders: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      'x-request-id': fc.oneof(fc.constantFrom('fuzz-request-1', 'a'.repeat(128), 'a'.repeat(129)), hostileHeaderValue),
      accept: fc.constantFrom('*/*', 'text/html', 'application/xml', 'image/svg+xml', 'application/json;q=0', ''),
      'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', '*'),
      origin: fc.constantFrom('https://evil.example', 'null'),
    },
    { requiredKeys: [] },
  )
  .map((headers) => Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) as Record<string, string>);

const adminHeaders: fc.Arbitrary<Record<string, string>> = fc
  .tuple(
    fc.oneof(
      { weight: 10, arbitrary: fc.constant<string | undefined>(ADMIN_TOKEN) },
      { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
      { weight: 1, arbitrary: fc.constantFrom<string | undefined>(`${ADMIN_TOKEN}x`, ADMIN_TOKEN.slice(0, -1), ADMIN_TOKEN.toUpperCase()) },
      { weight: 1, arbitrary: hostileHeaderValue.map<string | undefined>((value) => value) },
    ),
    commonHeaders,
  )
  .map(([token, common]) => (token === undefined ? common : { ...common, 'x-admin-token': token }));

const isoDateTime = fc.date({ min: new Date('1960-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((date) => date.toISOString());

function isoDateTimeOrNot(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: isoDateTime.map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.constantFrom('yesterday', '2026-13-01', '0', '') },
  );
}

function webhookBodies(ctx: FuzzContext, create: boolean): fc.Arbitrary<unknown> {
  const bases = create
    ? [
        { url: 'https://example.com/hooks', events: ['*'] },
        { url: 'https://example.com/hooks', events: ['qrcode.scanned', 'qrcode.updated'], description: 'fuzz', enabled: false },
        { url: 'https://example.com/hooks', events: ['qrcode.scanned'], folder_id: ctx.folderIds[0] },
        { url: 'https://example.com/hooks', events: ['qrcode.created'], qrcode_ids: ctx.codeIds.slice(0, 2) },
      ]
    : [
        { events: ['*'] },
        { enabled: true },
        { enabled: false },
        { description: 'renamed' },
        { url: 'https://example.com/other' },
        { folder_id: null },
        { qrcode_ids: [] },
      ];
  return mutatedBody(bases, ['url', 'events', 'events.0', 'description', 'enabled', 'folder_id', 'qrcode_ids', 'qrcode_ids.0'], {
    url: fc.oneof(
      fc.constantFrom(
        'http://example.com/h',
        'https://127.0.0.1/h',
        'https://[::1]/h',
        'https://169.254.169.254/latest',
        'https://user:pw@example.com/',
        'https://example.com/#x',
        'ftp://example.com/',
      ),
      hostileString.map((text) => `https://example.com/${text}`),
    ),
    events: fc.constantFrom(['*'], [], ['qrcode.scanned', 'qrcode.scanned'], ['webhook.test'], ['nope']),
    folder_id: fc.constantFrom(...ctx.folderIds, ctx.otherAccountFolderId, NO_SUCH_ID),
    'qrcode_ids.0': fc.constantFrom(ctx.otherAccountCodeId, NO_SUCH_ID, 'not-a-uuid'),
  });
}

function createBodies(ctx: FuzzContext): fc.Arbitrary<unknown> {
  const styled = qrInput('url', {
    name: 'styled',
    is_dynamic: true,
    folder_id: ctx.folderIds[0],
    expires_at: '2031-01-01T00:00:00Z',
    style: {
      dotsOptions: {
        type: 'rounded',
        color: '#1a2b3c',
        gradient: {
          type: 'linear',
          rotation: 45,
          colorStops: [
            { offset: 0, color: '#000000' },
            { offset: 1, color: '#333333' },
          ],
        },
      },
      cornersSquareOptions: { type: 'extra-rounded', color: '#000' },
      backgroundOptions: { color: '#ffffff', round: 0.2 },
      qrOptions: { errorCorrectionLevel: 'Q' },
      margin: 4,
      shape: 'square',
    },
  });
  const bases = [styled, ...QR_TYPES.map((type) => qrInput(type, { name: `${type} code` })), qrInput('text', { is_dynamic: true })];
  const contentPaths = [
    ...new Set(Object.values(CONTENT_SAMPLES).flatMap((sample) => Object.keys(sample.content).map((field) => `content.${field}`))),
  ];
  const paths = [
    'type',
    'content',
    ...contentPaths,
    'name',
    'is_dynamic',
    'folder_id',
    'expires_at',
    'style',
    'style.dotsOptions',
    'style.dotsOptions.type',
    'style.dotsOptions.color',
    'style.dotsOptions.gradient',
    'style.dotsOptions.gradient.colorStops',
    'style.dotsOptions.gradient.rotation',
    'style.cornersSquareOptions.type',
    'style.cornersDotOptions.color',
    'style.backgroundOptions.color',
    'style.backgroundOptions.round',
    'style.image',
    'style.imageOptions.imageSize',
    'style.qrOptions.errorCorrectionLevel',
    'style.margin',
    'style.shape',
  ];
  return mutatedBody(bases, paths, {
    type: fc.constantFrom(...QR_TYPES),
    'content.url': fc.oneof(
      fc.webUrl({ withFragments: true, withQueryParameters: true }),
      hostileString.map((text) => `https://example.com/${text}`),
    ),
    folder_id: fc.constantFrom(...ctx.folderIds, ctx.otherAccountFolderId, NO_SUCH_ID),
    expires_at: isoDateTime,
    'content.start': isoDateTime,
    'style.image': fc.constantFrom(
      'data:image/png;base64,',
      'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
      'data:image/png;base64,iVBORw0KGgo=',
      'https://example.com/logo.png',
    ),
  });
}

function updateBodies(ctx: FuzzContext): fc.Arbitrary<unknown> {
  const bases = [
    { name: 'renamed' },
    { content: { url: 'https://example.com/updated' } },
    { content: { text: 'updated' } },
    { style: { dotsOptions: { type: 'dots', color: '#000000' } } },
    { status: 'paused' },
    { status: 'active' },
    { expires_at: '2032-01-01T00:00:00Z' },
    { expires_at: null },
    { folder_id: ctx.folderIds[0] },
    { folder_id: null },
    { is_dynamic: true },
    { type: 'url' },
  ];
  return mutatedBody(
    bases,
    ['name', 'content', 'content.url', 'content.text', 'style', 'style.dotsOptions.color', 'status', 'expires_at', 'folder_id', 'is_dynamic', 'type'],
    {
      status: fc.constantFrom('active', 'paused', 'expired', 'ACTIVE'),
      folder_id: fc.constantFrom(...ctx.folderIds, ctx.otherAccountFolderId, NO_SUCH_ID),
      'content.url': hostileString.map((text) => `https://example.com/${text}`),
    },
  );
}

const LIST_QUERY = {
  page: fc.integer({ min: -2, max: 1_000_002 }).map(String),
  limit: fc.integer({ min: -1, max: 102 }).map(String),
  type: fc.constantFrom(...QR_TYPES, 'URL', 'unknown'),
  is_dynamic: fc.constantFrom('true', 'false', '1', 'yes'),
  search: fc.constantFrom('%25', '_', '%5C', 'a', 'é', '%F0%9F%98%80', 'x'.repeat(201)),
  sort: fc.constantFrom('newest', 'oldest', 'name-asc', 'name-desc', 'random'),
  folder_id: fc.constantFrom(NO_SUCH_ID, 'not-a-uuid'),
};
const DELIVERIES_QUERY = {
  page: fc.integer({ min: -2, max: 1_000_002 }).map(String),
  limit: fc.integer({ min: -1, max: 102 }).map(String),
  status: fc.constantFrom('pending', 'succeeded', 'failed', 'FAILED', 'retrying'),
  event_type: fc.constantFrom('qrcode.scanned', 'webhook.test', 'qrcode.*', '*'),
};
const HISTORY_QUERY = { page: fc.integer({ min: -2, max: 1_000_002 }).map(String), limit: fc.integer({ min: -1, max: 102 }).map(String) };
/** A version: mostly 1 (every code has it) or a few more, else out of range or not a number. */
const historyVersion = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 4 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('0', '-1', '01', '1.5', '1e3', '2147483648', '99999999999999999999', 'NaN', '%20', '') },
  { weight: 2, arbitrary: hostileSegment },
);
const IMAGE_QUERY = { size: fc.integer({ min: 98, max: 2002 }).map(String), format: fc.constantFrom('svg', 'png', 'SVG', '') };
const REPLAY_QUERY = { from: isoDateTimeOrNot(), to: isoDateTimeOrNot() };
const SCANS_QUERY = {
  from: isoDateTime.map(encodeURIComponent),
  to: isoDateTime.map(encodeURIComponent),
  interval: fc.constantFrom('hour', 'day', 'week', 'month', 'year', ''),
  tz: fc.constantFrom('UTC', 'Europe/Berlin', 'Asia/Kolkata', 'Pacific/Chatham', 'Mars/Olympus', 'utc', '', '%00'),
};
const ERASE_QUERY = { before: isoDateTimeOrNot() };

/** The request generator of every route. */
export function fuzzRoutes(ctx: FuzzContext): Record<FuzzRouteName, fc.Arbitrary<FuzzRequest>> {
  const codeId = pathId(ctx.codeIds, ctx, ctx.otherAccountCodeId);
  const folderId = pathId(ctx.folderIds, ctx, ctx.otherAccountFolderId);
  const webhookId = pathId(ctx.webhookIds, ctx, ctx.otherAccountWebhookId);
  const deliveryId = pathId(ctx.deliveryIds, ctx, NO_SUCH_ID);
  const createBody = createBodies(ctx);
  const withBody = (method: string, path: fc.Arbitrary<string>, headers: fc.Arbitrary<Record<string, string>>, body: fc.Arbitrary<BodySpec>) =>
    fc.record({ method: methodFor(method), url: path, headers, body });
  const withoutBody = (method: string, path: fc.Arbitrary<string>, headers: fc.Arbitrary<Record<string, string>>) =>
    fc.record({ method: methodFor(method), url: path, headers, body: fc.option(bodyFor(hostileString), { nil: undefined, freq: 10 }) });
  const plainQuery = queryString({});

  const bulkBody = fc.oneof(
    { weight: 8, arbitrary: fc.array(createBody, { minLength: 1, maxLength: 8 }).map((qrcodes) => ({ qrcodes })) },
    // One poisoned item among valid ones: that item fails, the others are created.
    {
      weight: 3,
      arbitrary: fc
        .tuple(poisonedBody(QR_TYPES.map((type) => qrInput(type, { name: `${type} item` }))), fc.nat({ max: 3 }))
        .map(([poisoned, at]) => ({ qrcodes: [...QR_TYPES.slice(0, at).map((type) => qrInput(type)), poisoned] })),
    },
    { weight: 1, arbitrary: fc.array(createBody, { minLength: 45, maxLength: 55 }).map((qrcodes) => ({ qrcodes })) },
    { weight: 1, arbitrary: mutatedBody([{ qrcodes: [qrInput('text')] }, { qrcodes: [] }], ['qrcodes', 'qrcodes.0', 'qrcodes.0.content', 'extra']) },
  );
  const nameBody = (bases: unknown[], more: string[] = []) => mutatedBody(bases, ['name', ...more], { name: hostileString });

  return {
    'POST /api/v1/qrcodes': withBody(
      'POST',
      plainQuery.map((q) => `/api/v1/qrcodes${q}`),
      apiKeyHeaders(ctx),
      bodyFor(createBody),
    ),
    'GET /api/v1/qrcodes': withoutBody(
      'GET',
      queryString(LIST_QUERY).map((q) => `/api/v1/qrcodes${q}`),
      apiKeyHeaders(ctx),
    ),
    'GET /api/v1/qrcodes/:id': withoutBody(
      'GET',
      fc.tuple(codeId, plainQuery).map(([id, q]) => `/api/v1/qrcodes/${id}${q}`),
      apiKeyHeaders(ctx),
    ),
    'PUT /api/v1/qrcodes/:id': withBody(
      'PUT',
      codeId.map((id) => `/api/v1/qrcodes/${id}`),
      apiKeyHeaders(ctx),
      bodyFor(updateBodies(ctx)),
    ),
    'POST /api/v1/qrcodes/bulk': withBody(
      'POST',
      plainQuery.map((q) => `/api/v1/qrcodes/bulk${q}`),
      apiKeyHeaders(ctx),
      bodyFor(bulkBody),
    ),
    'GET /api/v1/qrcodes/:id/image': withoutBody(
      'GET',
      fc.tuple(codeId, queryString(IMAGE_QUERY)).map(([id, q]) => `/api/v1/qrcodes/${id}/image${q}`),
      fc
        .tuple(apiKeyHeaders(ctx), fc.option(fc.oneof(fc.constantFrom('*', '"x"', 'W/"x"', '""'), hostileHeaderValue), { nil: undefined }))
        .map(([headers, etag]) => (etag === undefined ? headers : { ...headers, 'if-none-match': etag })),
    ),
    'GET /api/v1/qrcodes/:id/scans': withoutBody(
      'GET',
      fc.tuple(codeId, queryString(SCANS_QUERY)).map(([id, q]) => `/api/v1/qrcodes/${id}/scans${q}`),
      apiKeyHeaders(ctx),
    ),
    'GET /api/v1/qrcodes/:id/scans.csv': withoutBody(
      'GET',
      fc.tuple(codeId, queryString({ from: SCANS_QUERY.from, to: SCANS_QUERY.to })).map(([id, q]) => `/api/v1/qrcodes/${id}/scans.csv${q}`),
      apiKeyHeaders(ctx),
    ),
    'DELETE /api/v1/qrcodes/:id/scans': withoutBody(
      'DELETE',
      fc.tuple(codeId, queryString(ERASE_QUERY)).map(([id, q]) => `/api/v1/qrcodes/${id}/scans${q}`),
      apiKeyHeaders(ctx),
    ),
    'GET /api/v1/analytics': withoutBody(
      'GET',
      queryString({
        ...SCANS_QUERY,
        folder_id: fc.constantFrom(...ctx.folderIds, ctx.otherAccountFolderId, NO_SUCH_ID, 'not-a-uuid'),
        type: fc.constantFrom('url', 'text', 'wifi', 'barcode', ''),
      }).map((q) => `/api/v1/analytics${q}`),
      apiKeyHeaders(ctx),
    ),
    'GET /api/v1/qrcodes/:id/history': withoutBody(
      'GET',
      fc.tuple(codeId, queryString(HISTORY_QUERY)).map(([id, q]) => `/api/v1/qrcodes/${id}/history${q}`),
      apiKeyHeaders(ctx),
    ),
    'POST /api/v1/qrcodes/:id/history/:version/restore': withoutBody(
      'POST',
      fc.tuple(codeId, historyVersion).map(([id, version]) => `/api/v1/qrcodes/${id}/history/${version}/restore`),
      apiKeyHeaders(ctx),
    ),
    'POST /api/v1/styles/check': withBody(
      'POST',
      plainQuery.map((q) => `/api/v1/styles/check${q}`),
      apiKeyHeaders(ctx),
      bodyFor(
        mutatedBody(
          [
            { style: { dotsOptions: { type: 'dots' } }, content_length: 40 },
            { type: 'dynamic', style: { cornersDotOptions: { type: 'dots' } } },
            { style: {} },
          ],
          [
            'style',
            'style.dotsOptions',
            'style.dotsOptions.type',
            'style.cornersSquareOptions.type',
            'style.image',
            'style.margin',
            'content_length',
            'type',
          ],
        ),
      ),
    ),
    'POST /api/v1/folders': withBody(
      'POST',
      plainQuery.map((q) => `/api/v1/folders${q}`),
      apiKeyHeaders(ctx),
      bodyFor(nameBody([{ name: 'Fuzz folder' }])),
    ),
    'GET /api/v1/folders': withoutBody(
      'GET',
      plainQuery.map((q) => `/api/v1/folders${q}`),
      apiKeyHeaders(ctx),
    ),
    'GET /api/v1/folders/:id': withoutBody(
      'GET',
      folderId.map((id) => `/api/v1/folders/${id}`),
      apiKeyHeaders(ctx),
    ),
    'PUT /api/v1/folders/:id': withBody(
      'PUT',
      folderId.map((id) => `/api/v1/folders/${id}`),
      apiKeyHeaders(ctx),
      bodyFor(nameBody([{ name: 'Renamed folder' }])),
    ),
    'POST /api/v1/admin/api-keys': withBody(
      'POST',
      fc.constant('/api/v1/admin/api-keys'),
      adminHeaders,
      bodyFor(
        mutatedBody([{ name: 'fuzz key' }, { name: 'fuzz key', account_id: ctx.accountId }], ['name', 'account_id'], {
          name: hostileString,
          account_id: fc.constantFrom(ctx.accountId, NO_SUCH_ID),
        }),
      ),
    ),
    'GET /api/v1/admin/api-keys': withoutBody(
      'GET',
      plainQuery.map((q) => `/api/v1/admin/api-keys${q}`),
      adminHeaders,
    ),
    'GET /health/live': withoutBody(
      'GET',
      plainQuery.map((q) => `/health/live${q}`),
      commonHeaders,
    ),
    'GET /health/ready': withoutBody(
      'GET',
      plainQuery.map((q) => `/health/ready${q}`),
      commonHeaders,
    ),
    'GET /metrics': withoutBody(
      'GET',
      plainQuery.map((q) => `/metrics${q}`),
      commonHeaders,
    ),
    'POST /api/v1/webhooks': withBody(
      'POST',
      plainQuery.map((q) => `/api/v1/webhooks${q}`),
      apiKeyHeaders(ctx),
      bodyFor(webhookBodies(ctx, true)),
    ),
    'GET /api/v1/webhooks': withoutBody(
      'GET',
      plainQuery.map((q) => `/api/v1/webhooks${q}`),
      apiKeyHeaders(ctx),
    ),
    'GET /api/v1/webhooks/:id': withoutBody(
      'GET',
      webhookId.map((id) => `/api/v1/webhooks/${id}`),
      apiKeyHeaders(ctx),
    ),
    'PATCH /api/v1/webhooks/:id': withBody(
      'PATCH',
      webhookId.map((id) => `/api/v1/webhooks/${id}`),
      apiKeyHeaders(ctx),
      bodyFor(webhookBodies(ctx, false)),
    ),
    'POST /api/v1/webhooks/:id/rotate-secret': withoutBody(
      'POST',
      webhookId.map((id) => `/api/v1/webhooks/${id}/rotate-secret`),
      apiKeyHeaders(ctx),
    ),
    'POST /api/v1/webhooks/:id/test': withoutBody(
      'POST',
      webhookId.map((id) => `/api/v1/webhooks/${id}/test`),
      apiKeyHeaders(ctx),
    ),
    'GET /api/v1/webhooks/:id/deliveries': withoutBody(
      'GET',
      fc.tuple(webhookId, queryString(DELIVERIES_QUERY)).map(([id, q]) => `/api/v1/webhooks/${id}/deliveries${q}`),
      apiKeyHeaders(ctx),
    ),
    'GET /api/v1/webhooks/:id/deliveries/:delivery_id': withoutBody(
      'GET',
      fc.tuple(webhookId, deliveryId).map(([id, delivery]) => `/api/v1/webhooks/${id}/deliveries/${delivery}`),
      apiKeyHeaders(ctx),
    ),
    'POST /api/v1/webhooks/:id/deliveries/:delivery_id/redeliver': withoutBody(
      'POST',
      fc.tuple(webhookId, deliveryId).map(([id, delivery]) => `/api/v1/webhooks/${id}/deliveries/${delivery}/redeliver`),
      apiKeyHeaders(ctx),
    ),
    'POST /api/v1/webhooks/:id/replay': withoutBody(
      'POST',
      fc.tuple(webhookId, queryString(REPLAY_QUERY)).map(([id, q]) => `/api/v1/webhooks/${id}/replay${q}`),
      apiKeyHeaders(ctx),
    ),
    'GET /r/:short_code': redirectRequests(ctx),
    'GET /r/:short_code/:file': downloadRequests(ctx),
    'any method, any path': anyPath(ctx),
    'DELETE /api/v1/qrcodes/:id': withoutBody(
      'DELETE',
      pathId(ctx.disposableCodeIds, ctx, ctx.otherAccountCodeId).map((id) => `/api/v1/qrcodes/${id}`),
      apiKeyHeaders(ctx),
    ),
    'DELETE /api/v1/folders/:id': withoutBody(
      'DELETE',
      pathId(ctx.disposableFolderIds, ctx, ctx.otherAccountFolderId).map((id) => `/api/v1/folders/${id}`),
      apiKeyHeaders(ctx),
    ),
    'DELETE /api/v1/admin/api-keys/:id': withoutBody(
      'DELETE',
      pathId(ctx.disposableApiKeyIds, ctx, NO_SUCH_ID).map((id) => `/api/v1/admin/api-keys/${id}`),
      adminHeaders,
    ),
    'DELETE /api/v1/webhooks/:id': withoutBody(
      'DELETE',
      pathId(ctx.disposableWebhookIds, ctx, ctx.otherAccountWebhookId).map((id) => `/api/v1/webhooks/${id}`),
      apiKeyHeaders(ctx),
    ),
  };
}

/** Scans: live codes (hostile targets included), unknown and malformed short codes, with odd headers. */
function redirectRequests(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const shortCode = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...ctx.shortCodes) },
    { weight: 2, arbitrary: fc.stringMatching(/^[0-9A-Za-z]{6,10}$/) },
    { weight: 3, arbitrary: hostileSegment },
    { weight: 1, arbitrary: fc.integer({ min: 17, max: 5000 }).map((n) => 'A'.repeat(n)) },
  );
  const headers = fc
    .record(
      {
        'user-agent': fc.oneof(
          fc.constantFrom(IPHONE, 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'curl/8.0', ''),
          hostileHeaderValue,
        ),
        referer: fc.oneof(fc.constantFrom('https://example.com/page', 'android-app://com.google.android.gm/'), hostileHeaderValue),
        'x-forwarded-for': fc.constantFrom('1.2.3.4', '::1', 'not-an-ip', '1.2.3.4, 5.6.7.8'),
        'x-request-id': hostileHeaderValue,
        accept: fc.constantFrom('text/html', 'application/json', '*/*'),
      },
      { requiredKeys: [] },
    )
    .map((all) => Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined)) as Record<string, string>);
  return fc.record({
    method: fc.oneof(
      { weight: 10, arbitrary: fc.constant('GET') },
      { weight: 2, arbitrary: fc.constant('HEAD') },
      { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
    ),
    url: fc.tuple(shortCode, queryString({ utm_source: fc.constant('qr') })).map(([code, q]) => `/r/${code}${q}`),
    headers,
    body: fc.constant(undefined),
  });
}

/** The files landing pages offer (contact.vcf, event.ics), of every kind of code, and names that are none. */
function downloadRequests(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const shortCode = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...ctx.shortCodes) }, { weight: 1, arbitrary: hostileSegment });
  const file = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('contact.vcf', 'event.ics') },
    { weight: 1, arbitrary: fc.constantFrom('contact.VCF', 'x.vcf', '') },
    { weight: 1, arbitrary: hostileSegment },
  );
  return fc.record({
    method: fc.oneof(
      { weight: 10, arbitrary: fc.constant('GET') },
      { weight: 2, arbitrary: fc.constant('HEAD') },
      { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
    ),
    url: fc.tuple(shortCode, file).map(([code, name]) => `/r/${code}/${name}`),
    headers: commonHeaders,
    body: fc.constant(undefined),
  });
}

/** Unknown and half-known paths under every prefix, any method: routing itself must answer in shape. */
function anyPath(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const words = [
    'qrcodes',
    'folders',
    'webhooks',
    'deliveries',
    'admin',
    'api-keys',
    'bulk',
    'image',
    'scans',
    'health',
    'ready',
    'live',
    'metrics',
    'r',
    'docs',
    'docs-json',
    'api',
    'v1',
    'v2',
    '..',
    '.',
    '%2e%2e',
    '%2F',
    ctx.codeIds[0],
  ];
  const segment = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...words) }, { weight: 2, arbitrary: hostileSegment });
  const prefix = fc.constantFrom(
    '/',
    '/api/',
    '/api/v1/',
    '/api/v1/qrcodes/',
    '/api/v1/folders/',
    '/api/v1/webhooks/',
    '/api/v1/admin/',
    '/health/',
    '/docs/',
    '/r/',
    '//',
    '/api//v1/',
  );
  return fc.record({
    method: fc.constantFrom(...METHODS),
    url: fc.tuple(prefix, fc.array(segment, { maxLength: 5 }), queryString({})).map(([start, segments, q]) => `${start}${segments.join('/')}${q}`),
    headers: apiKeyHeaders(ctx),
    body: fc.option(bodyFor(hostileValue), { nil: undefined, freq: 3 }),
  });
}
