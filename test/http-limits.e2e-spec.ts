import { errorShapeProblems, namedFields, requestIdProblems } from './support/error-shape';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app';
import { auth, createQr, GENEROUS_RATE_LIMIT } from './support/factories';
import { rawExchange } from './support/raw-http';

/**
 * Requests that fail before the application sees them (bad URL encoding, over-long parameters,
 * oversized headers, a body or headers that never finish) are answered like every other error:
 * the error shape with `request_id` and X-Request-Id, within seconds.
 */

/** The configured body and header timeouts (seconds) of the app under test. */
const BODY_TIMEOUT_SECONDS = 2;
const HEADERS_TIMEOUT_SECONDS = 2;
/** What the answer may take beyond the configured timeout. */
const TIMEOUT_SLACK_MS = 3000;

describe('HTTP limits and malformed requests (e2e)', () => {
  let t: TestApp;
  let key: string;
  let port: number;
  let codeId: string;

  beforeAll(async () => {
    t = await startTestApp({
      ...GENEROUS_RATE_LIMIT,
      HTTP_REQUEST_TIMEOUT_MS: String(BODY_TIMEOUT_SECONDS * 1000),
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_SECONDS * 1000),
    });
    ({ key } = await t.newAccount());
    codeId = (await createQr(t, key)).id as string;
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as { port: number }).port;
  });
  afterAll(() => t.close());

  const longId = (length: number) => `${'0123456789abcdef'.repeat(Math.ceil(length / 16))}`.slice(0, length);

  describe.each([101, 150, 500, 5000])('a %i-character path id', (length) => {
    it.each([
      ['GET', '/api/v1/qrcodes/:id'],
      ['PUT', '/api/v1/qrcodes/:id'],
      ['DELETE', '/api/v1/qrcodes/:id'],
      ['GET', '/api/v1/qrcodes/:id/image'],
      ['GET', '/api/v1/qrcodes/:id/scans'],
      ['GET', '/api/v1/folders/:id'],
      ['PUT', '/api/v1/folders/:id'],
      ['DELETE', '/api/v1/folders/:id'],
      ['DELETE', '/api/v1/admin/api-keys/:id'],
    ] as const)('%s %s: a 4xx in the error shape, as a short id that is not a UUID gets', async (method, route) => {
      const headers = { ...auth(key), 'x-admin-token': ADMIN_TOKEN };
      const payload = method === 'PUT' ? { name: 'renamed' } : undefined;
      const long = await t.request({ method, url: route.replace(':id', longId(length)), headers, payload });
      const short = await t.request({ method, url: route.replace(':id', 'abc'), headers, payload });
      expect(errorShapeProblems(long)).toEqual([]);
      expect([400, 404, 414]).toContain(long.statusCode);
      expect([400, 404]).toContain(short.statusCode);
    });
  });

  it('names the parameter when an admin id is not a UUID: 400 with errors [{field: "id"}]', async () => {
    const res = await t.request({ method: 'DELETE', url: '/api/v1/admin/api-keys/abc', headers: { 'x-admin-token': ADMIN_TOKEN } });
    expect(res.statusCode).toBe(400);
    expect(errorShapeProblems(res)).toEqual([]);
    expect(namedFields(res)).toEqual(['id']);
  });

  it.each([
    '/api/v1/qrcodes/%zz',
    '/api/v1/qrcodes/%',
    '/api/v1/qrcodes/%E0%A4%A',
    '/api/v1/qrcodes/%ED%A0%80',
    '/api/v1/qrcodes/%zz/image',
    '/api/v1/qrcodes/%zz/scans',
    '/api/v1/folders/%zz',
    '/api/v1/%zz',
  ])('GET %s: a 4xx in the error shape with request_id and X-Request-Id', async (url) => {
    const res = await t.request({ method: 'GET', url, headers: auth(key) });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(errorShapeProblems(res)).toEqual([]);
  });

  it.each(['/r/%zz', '/r/%', '/r/%ED%A0%80', `/r/${longId(500)}`])(
    'GET %s on the redirect host: its 4xx page, or the error shape, with X-Request-Id',
    async (url) => {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      if (/^text\/html/.test(String(res.headers['content-type']))) expect(requestIdProblems(res)).toEqual([]);
      else expect(errorShapeProblems(res)).toEqual([]);
    },
  );

  it.each(['%zz', '%ED%A0%80', '%C0%AF', '%FF'])(
    'GET /api/v1/qrcodes?search=%s: a list (the text as given) or 400 naming search, never a 5xx',
    async (encoded) => {
      const res = await t.request({ method: 'GET', url: `/api/v1/qrcodes?search=${encoded}`, headers: auth(key) });
      if (res.statusCode === 200) expect(res.json()).toMatchObject({ data: expect.any(Array), request_id: expect.any(String) });
      else {
        expect(res.statusCode).toBe(400);
        expect(errorShapeProblems(res)).toEqual([]);
        expect(namedFields(res)).toContain('search');
      }
    },
  );

  it.each(['%00', 'a%00b', '%ED%A0%80%00'])('GET /api/v1/qrcodes?search=%s (NUL): 400 naming search', async (encoded) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/qrcodes?search=${encoded}`, headers: auth(key) });
    expect(res.statusCode).toBe(400);
    expect(errorShapeProblems(res)).toEqual([]);
    expect(namedFields(res)).toContain('search');
  });

  it('the same %zz over a real socket: the error shape too', async () => {
    const exchange = await rawExchange(
      port,
      [`GET /api/v1/qrcodes/%zz HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\nConnection: close\r\n\r\n`],
      5000,
    );
    expect(exchange.answer?.statusCode).toBeGreaterThanOrEqual(400);
    expect(exchange.answer?.statusCode).toBeLessThan(500);
    expect(errorShapeProblems(exchange.answer!)).toEqual([]);
  });

  it('answers oversized headers with 431 in the error shape (request_id, X-Request-Id)', async () => {
    const request = `GET /api/v1/qrcodes/${codeId} HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\nX-Padding: ${'a'.repeat(40_000)}\r\n\r\n`;
    const exchange = await rawExchange(port, [request], 5000);
    expect({ status: exchange.answer?.statusCode, raw: exchange.raw.slice(0, 300) }).toEqual({ status: 431, raw: expect.any(String) });
    expect(errorShapeProblems(exchange.answer!)).toEqual([]);
  });

  it(`answers a request body that stalls with 408 in the error shape within the body timeout (${BODY_TIMEOUT_SECONDS} s configured)`, async () => {
    const head =
      `POST /api/v1/qrcodes HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\n` + 'Content-Type: application/json\r\nContent-Length: 200\r\n\r\n';
    const exchange = await rawExchange(port, [head, '{"type":"text",'], BODY_TIMEOUT_SECONDS * 1000 + TIMEOUT_SLACK_MS + 5000);
    expect({ status: exchange.answer?.statusCode, raw: exchange.raw.slice(0, 300) }).toEqual({ status: 408, raw: expect.any(String) });
    expect(exchange.ms).toBeLessThanOrEqual(BODY_TIMEOUT_SECONDS * 1000 + TIMEOUT_SLACK_MS);
    expect(errorShapeProblems(exchange.answer!)).toEqual([]);
  });

  it(`answers a body that trickles in (a byte a second) with 408 once the body timeout passes (${BODY_TIMEOUT_SECONDS} s configured)`, async () => {
    const head =
      `POST /api/v1/folders HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\n` + 'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    const started = Date.now();
    const trickle = Array.from({ length: 12 }, () => [{ pauseMs: 1000 }, ' ']).flat();
    const exchange = await rawExchange(port, [head, ...trickle], 5000);
    expect({ status: exchange.answer?.statusCode, raw: exchange.raw.slice(0, 300) }).toEqual({ status: 408, raw: expect.any(String) });
    expect(Date.now() - started).toBeLessThanOrEqual(BODY_TIMEOUT_SECONDS * 1000 + TIMEOUT_SLACK_MS + 1000);
    expect(errorShapeProblems(exchange.answer!)).toEqual([]);
  }, 30_000);

  it(`cuts off headers that never end within the headers timeout (${HEADERS_TIMEOUT_SECONDS} s configured)`, async () => {
    const exchange = await rawExchange(
      port,
      [`GET /api/v1/qrcodes HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\n`],
      HEADERS_TIMEOUT_SECONDS * 1000 + TIMEOUT_SLACK_MS + 5000,
    );
    expect(exchange.closed || exchange.answer !== null).toBe(true);
    expect(exchange.ms).toBeLessThanOrEqual(HEADERS_TIMEOUT_SECONDS * 1000 + TIMEOUT_SLACK_MS);
    if (exchange.answer?.body) expect(errorShapeProblems(exchange.answer)).toEqual([]);
  });
});
