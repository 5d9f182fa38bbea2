import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { errorShapeProblems, header, REQUEST_ID, requestIdProblems } from '../support/error-shape';
import { auth, createFolder, createQr, expectStatus, qrInput } from '../support/factories';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../support/test-app';
import { FUZZ_ROUTE_NAMES, fuzzRoutes, type FuzzContext, type FuzzRequest, type FuzzRouteName } from './fuzz-routes';
import { describeBody, isPoisoned, sendable } from './hostile-input';

/**
 * Generated hostile requests against every route (fast-check): whatever arrives, the service
 * answers without a 5xx, every error answer is in the error shape with `request_id` and the
 * X-Request-Id header, and every redirect has an ASCII Location.
 *
 * FUZZ_RUNS (default 300 in `npm test`) requests per route; FUZZ_SEED replays a run; FUZZ_ROUTES (a regular
 * expression) picks routes. `FUZZ_RUNS=10000` is the long run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const ROUTES = process.env.FUZZ_ROUTES ? new RegExp(process.env.FUZZ_ROUTES) : null;
/** Requests in flight at once, and generated at once. */
const CONCURRENCY = 8;
const CHUNK = 500;
/** Failing requests shown per route (all are counted). */
const SHOWN_FAILURES = 5;
/** An answer slower than this counts as none. */
const ANSWER_WITHIN_MS = 20_000;

/** Hostile targets a url code may point to: those the service stores are scanned too. */
const HOSTILE_TARGETS = [
  'https://example.com/😀',
  'https://bücher.example/',
  'https://аррӏе.com/',
  'https://example.com/a\u2028b',
  'https://example.com/\u0085',
  'https://example.com/café?q=é#ü',
  'https://example.com/%zz',
  'http://[::ffff:7f00:1]:80/',
];

interface Failure {
  index: number;
  request: FuzzRequest;
  status: number | string;
  problems: string[];
  body: string;
}

interface RouteResult {
  statuses: Map<string, number>;
  failures: Failure[];
  /** Requests with at least one problem. */
  failing: number;
  problemCounts: Map<string, number>;
  ms: number;
}

function routeSeed(route: string): number {
  let hash = SEED >>> 0;
  for (const char of route) hash = (Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0) % 2 ** 31;
  return hash;
}

/** What is wrong with the answer to a generated request (nothing: an empty list). */
function answerProblems(request: FuzzRequest, res: LightMyRequestResponse): string[] {
  const problems: string[] = [];
  if (res.statusCode >= 500) problems.push(`${res.statusCode} answer`);
  problems.push(...requestIdProblems(res));
  const incoming = request.headers['x-request-id'];
  if (incoming !== undefined && REQUEST_ID.test(incoming) && header(res, 'x-request-id') !== incoming)
    problems.push('valid incoming X-Request-Id not reused');
  const contentType = header(res, 'content-type') ?? '';
  // The path as a client resolves it (dot segments and all): that decides which host answers.
  const redirectHostPage = resolvedPath(request.url).startsWith('/r/') && /^text\/html/.test(contentType);
  if (res.statusCode >= 400 && request.method !== 'HEAD' && !redirectHostPage) problems.push(...errorShapeProblems(res));
  if (res.statusCode >= 300 && res.statusCode < 400 && res.statusCode !== 304) {
    const location = header(res, 'location') ?? '';
    if (!/^[\x21-\x7e]+$/.test(location)) problems.push(`Location not ASCII: ${JSON.stringify(location.slice(0, 120))}`);
    else if (!URL.canParse(location)) problems.push(`Location not a URL: ${location.slice(0, 120)}`);
  }
  problems.push(...poisonProblems(request, res));
  // The OpenAPI document (/docs-json) is served as written, not as an API answer: no request_id in it.
  if (res.statusCode < 300 && request.method !== 'HEAD' && /^application\/json/.test(contentType) && !resolvedPath(request.url).startsWith('/docs')) {
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      problems.push('application/json body that is not JSON');
    }
    if (body && typeof body === 'object' && !Array.isArray(body) && (body as { request_id?: unknown }).request_id !== header(res, 'x-request-id')) {
      problems.push('JSON body without the request_id of its X-Request-Id');
    }
  }
  return problems;
}

/** A request path with its dot segments resolved, as a client (and light-my-request) sends it. */
function resolvedPath(url: string): string {
  try {
    return new URL(`http://service.test${url.startsWith('/') ? '' : '/'}${url}`).pathname;
  } catch {
    return url;
  }
}

/** Methods whose routes read a body; a body sent with GET, HEAD or DELETE is never read (so never stored). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * A body with NUL or a lone surrogate in one of its strings is refused (4xx), and a bulk item like
 * that fails on its own: such text must never be stored, nor reach PostgreSQL.
 */
function poisonProblems(request: FuzzRequest, res: LightMyRequestResponse): string[] {
  if (request.body?.kind !== 'json' || res.statusCode >= 400 || !BODY_METHODS.has(request.method.toUpperCase())) return [];
  const value = request.body.value;
  const items = (value as { qrcodes?: unknown } | null)?.qrcodes;
  // A bulk body is judged item by item: a poisoned item must fail alone, the others may be created.
  const rest = Array.isArray(items) ? { ...(value as object), qrcodes: [] } : value;
  if (isPoisoned(rest)) return [`accepted (${res.statusCode}) a body with NUL or a lone surrogate in a string`];
  if (!Array.isArray(items) || res.statusCode !== 201) return [];
  const failed = new Set((JSON.parse(res.body) as { errors?: Array<{ index: number }> }).errors?.map((error) => error.index));
  return items.flatMap((item, index) =>
    isPoisoned(item) && !failed.has(index) ? [`created bulk item ${index} with NUL or a lone surrogate in a string`] : [],
  );
}

/** A problem without its particulars, so that the same problem is counted once per kind. */
function problemKind(problem: string): string {
  if (problem.startsWith('internals in the body')) return `internals in the body (${/FST_ERR_\w+|ERR_[A-Z_]+/.exec(problem)?.[0] ?? 'stack or SQL'})`;
  return problem
    .replace(/"[^"]*"/g, '"…"')
    .replace(/item \d+/, 'item #')
    .slice(0, 90);
}

/** A request as a line a person can replay. */
function describeRequest(request: FuzzRequest): string {
  const url = request.url.length > 300 ? `${request.url.slice(0, 300)}… (${request.url.length} chars)` : request.url;
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name, value.length > 80 ? `${value.slice(0, 80)}… (${value.length})` : value]),
  );
  return `${request.method} ${url} headers ${JSON.stringify(headers)}${request.body ? ` body ${describeBody(request.body)}` : ''}`;
}

async function send(t: TestApp, request: FuzzRequest): Promise<LightMyRequestResponse | null> {
  const headers = { ...request.headers };
  let payload: string | Buffer | undefined;
  if (request.body) {
    const body = sendable(request.body);
    payload = body.payload;
    if (body.contentType !== undefined) headers['content-type'] = body.contentType;
  }
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ANSWER_WITHIN_MS)));
  try {
    return await Promise.race([t.request({ method: request.method as 'GET', url: request.url, headers, payload }), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** The message of the service's "database unavailable" 503 (all-exceptions.filter.ts). */
const DATABASE_UNAVAILABLE = 'The database is unavailable; try again shortly';

/**
 * The answer to a request, asked once more after a "database unavailable" 503: on the shared CI
 * machine PostgreSQL can stall past the link watchdog's budget while another test file clones its
 * database, which is the machine's doing, not the input's. An input that makes the service answer
 * 503 answers it again and still fails.
 */
async function sendAgainIfUnavailable(t: TestApp, request: FuzzRequest): Promise<LightMyRequestResponse | null | Error> {
  const first = await send(t, request).catch((error: Error) => error);
  if (first instanceof Error || first === null || first.statusCode !== 503 || !first.body.includes(DATABASE_UNAVAILABLE)) return first;
  await new Promise((resolve) => setTimeout(resolve, 500));
  return send(t, request).catch((error: Error) => error);
}

async function fuzzRoute(t: TestApp, name: string, generator: fc.Arbitrary<FuzzRequest>): Promise<RouteResult> {
  const result: RouteResult = { statuses: new Map(), failures: [], failing: 0, problemCounts: new Map(), ms: 0 };
  const started = Date.now();
  const seed = routeSeed(name);
  for (let chunk = 0; chunk * CHUNK < RUNS; chunk++) {
    const requests = fc.sample(generator, { seed: seed + chunk, numRuns: Math.min(CHUNK, RUNS - chunk * CHUNK) });
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const index = next++;
        const request = requests[index];
        // A rejection is the service failing to write its answer (say, a header Node refuses): a 500 on a real socket.
        const res = await sendAgainIfUnavailable(t, request);
        const status = res instanceof Error ? 'threw' : res ? String(res.statusCode) : 'none';
        result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
        const problems = [
          ...new Set(
            res instanceof Error
              ? [`no answer could be written: ${res.message}`]
              : res
                ? answerProblems(request, res)
                : [`no answer within ${ANSWER_WITHIN_MS} ms`],
          ),
        ];
        for (const problem of new Set(problems.map(problemKind))) {
          result.problemCounts.set(problem, (result.problemCounts.get(problem) ?? 0) + 1);
        }
        if (problems.length) result.failing++;
        if (problems.length && result.failures.length < SHOWN_FAILURES) {
          const answered = res instanceof Error ? null : res;
          result.failures.push({
            index: chunk * CHUNK + index,
            request,
            status: answered?.statusCode ?? status,
            problems,
            body: answered ? answered.body.slice(0, 300) : '',
          });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }
  result.ms = Date.now() - started;
  return result;
}

describe(`API fuzz: ${RUNS} generated requests per route (e2e)`, () => {
  let t: TestApp;
  let routes: ReturnType<typeof fuzzRoutes>;
  const results = new Map<string, RouteResult>();

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' });
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const { key } = owner;
    const codes = [
      await createQr(t, key, { is_dynamic: true }),
      await createQr(t, key, { type: 'text', is_dynamic: true }),
      await createQr(t, key, { type: 'vcard' }),
      await createQr(t, key, { type: 'wifi', is_dynamic: true }),
      await createQr(t, key, { type: 'event', is_dynamic: true }),
      await createQr(t, key, { is_dynamic: true, expires_at: new Date(Date.now() + 60_000).toISOString() }),
    ];
    const paused = await createQr(t, key, { is_dynamic: true, name: 'paused' });
    expectStatus(await t.request({ method: 'PUT', url: `/api/v1/qrcodes/${paused.id}`, headers: auth(key), payload: { status: 'paused' } }), 200);
    codes.push(paused);
    for (const url of HOSTILE_TARGETS) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/qrcodes',
        headers: auth(key),
        payload: qrInput('url', { content: { url }, is_dynamic: true }),
      });
      if (res.statusCode === 201) codes.push(res.json());
    }
    const disposableCodes = await Promise.all(Array.from({ length: 20 }, () => createQr(t, key)));
    const folders = [await createFolder(t, key, 'Fuzz A'), await createFolder(t, key, 'Fuzz B')];
    const disposableFolders = await Promise.all(Array.from({ length: 10 }, (_, i) => createFolder(t, key, `Disposable ${i}`)));
    const disposableKeys = [];
    for (let i = 0; i < 10; i++) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/admin/api-keys',
        headers: { 'x-admin-token': ADMIN_TOKEN },
        payload: { name: `disposable ${i}` },
      });
      expectStatus(res, 201);
      disposableKeys.push(res.json<{ id: string }>().id);
    }
    const webhook = async (accountKey: string, description: string) => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: auth(accountKey),
        payload: { url: 'https://example.com/fuzz', events: ['qrcode.created'], description },
      });
      expectStatus(res, 201);
      return res.json<{ id: string }>().id;
    };
    const webhookIds = [await webhook(key, 'Fuzz A'), await webhook(key, 'Fuzz B')];
    const disposableWebhookIds = [];
    for (let i = 0; i < 5; i++) disposableWebhookIds.push(await webhook(key, `Disposable ${i}`));
    const deliveryIds = [];
    for (let i = 0; i < 2; i++) {
      const res = await t.request({ method: 'POST', url: `/api/v1/webhooks/${webhookIds[0]}/test`, headers: auth(key) });
      expectStatus(res, 202);
      deliveryIds.push(res.json<{ id: string }>().id);
    }
    const context: FuzzContext = {
      key,
      otherKey: other.key,
      accountId: owner.accountId,
      codeIds: codes.map((code) => code.id as string),
      disposableCodeIds: disposableCodes.map((code) => code.id as string),
      otherAccountCodeId: (await createQr(t, other.key)).id as string,
      folderIds: folders.map((folder) => folder.id as string),
      disposableFolderIds: disposableFolders.map((folder) => folder.id as string),
      otherAccountFolderId: (await createFolder(t, other.key, 'Not yours')).id as string,
      disposableApiKeyIds: disposableKeys,
      shortCodes: codes.filter((code) => code.short_code).map((code) => code.short_code as string),
      webhookIds,
      disposableWebhookIds,
      otherAccountWebhookId: await webhook(other.key, 'Not yours'),
      deliveryIds,
    };
    routes = fuzzRoutes(context);
  }, 60_000);

  afterAll(async () => {
    const failed = [...results.values()].some((result) => result.failures.length > 0);
    if (failed || process.env.FUZZ_RUNS) console.log(summary(results));
    await t?.close();
  });

  const names = FUZZ_ROUTE_NAMES.filter((name) => !ROUTES || ROUTES.test(name));

  it.each(names)(
    '%s: no 5xx, every error in the shape with request_id and X-Request-Id',
    async (name: FuzzRouteName) => {
      const result = await fuzzRoute(t, name, routes[name]);
      results.set(name, result);
      if (result.failures.length === 0) return;
      const lines = [
        `${name}: ${result.failing} of ${RUNS} requests answered wrongly, ${result.problemCounts.size} kinds of problem ` +
          `(FUZZ_SEED=${SEED} FUZZ_ROUTES='${escapeRegExp(name)}' replays this run)`,
        ...[...result.problemCounts].map(([problem, count]) => `  ${count} × ${problem}`),
        'first failures:',
        ...result.failures.map(
          (failure) =>
            `  #${failure.index}: ${describeRequest(failure.request)}\n` +
            `    → ${failure.status}: ${failure.problems.map((problem) => problem.slice(0, 160)).join('; ')}\n` +
            `    body ${JSON.stringify(failure.body.slice(0, 200))}`,
        ),
      ];
      throw new Error(lines.join('\n'));
    },
    Math.max(120_000, RUNS * 40),
  );
});

function escapeRegExp(text: string): string {
  return `^${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`;
}

/** Answers by route and status, with the time each route took. */
function summary(results: Map<string, RouteResult>): string {
  const statuses = [...new Set([...results.values()].flatMap((result) => [...result.statuses.keys()]))].sort();
  const width = Math.max(...[...results.keys()].map((name) => name.length));
  const lines = [
    `fuzz seed ${SEED}, ${RUNS} requests per route`,
    `${'route'.padEnd(width)}  ${statuses.map((status) => status.padStart(6)).join('')}  failing    seconds`,
  ];
  for (const [name, result] of results) {
    lines.push(
      `${name.padEnd(width)}  ${statuses.map((status) => String(result.statuses.get(status) ?? '').padStart(6)).join('')}  ` +
        `${String(result.failing).padStart(7)}  ${(result.ms / 1000).toFixed(1).padStart(9)}`,
    );
  }
  return lines.join('\n');
}
