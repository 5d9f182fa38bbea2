import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import { auth, expectStatus, GENEROUS_RATE_LIMIT, qrInput, TestClock } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const H = 3_600_000;

describe('Idempotency-Key on creates (e2e)', () => {
  const clock = new TestClock();
  let t: TestApp;
  let key: string;
  let accountId: string;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT, { clock });
    ({ key, accountId } = await t.newAccount());
  });
  afterAll(() => t.close());

  let counter = 0;
  const newKey = () => `key-${Date.now()}-${counter++}`;
  const post = (url: string, payload: unknown, idempotencyKey?: string, apiKey = key, app: Pick<TestApp, 'request'> = t) =>
    app.request({
      method: 'POST',
      url,
      headers: { ...auth(apiKey), ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }) },
      payload: payload as Record<string, unknown>,
    });
  const codesNamed = (name: string) => t.prisma.qrCode.count({ where: { accountId, name } });

  it('answers a repeat with the first response and creates nothing more', async () => {
    const body = qrInput('url', { name: 'Replay me', is_dynamic: true });
    const idem = newKey();
    const first = await post('/api/v1/qrcodes', body, idem);
    expectStatus(first, 201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post('/api/v1/qrcodes', body, idem);
    expectStatus(again, 201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const { request_id: firstRequest, ...firstBody } = first.json();
    const { request_id: againRequest, ...againBody } = again.json();
    expect(againBody).toEqual(firstBody);
    expect(againRequest).not.toBe(firstRequest);
    expect(again.headers['x-request-id']).toBe(againRequest);
    expect(await codesNamed('Replay me')).toBe(1);
  });

  it('takes the same body in another key order as the same request', async () => {
    const idem = newKey();
    expectStatus(await post('/api/v1/qrcodes', { type: 'text', content: { text: 'a' }, name: 'Order' }, idem), 201);
    const again = await post('/api/v1/qrcodes', { name: 'Order', content: { text: 'a' }, type: 'text' }, idem);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await codesNamed('Order')).toBe(1);
  });

  it('answers 422 for the same key with another body, or on another endpoint, in the one error shape', async () => {
    const idem = newKey();
    expectStatus(await post('/api/v1/qrcodes', qrInput('url', { name: 'First body' }), idem), 201);
    const other = await post('/api/v1/qrcodes', qrInput('url', { name: 'Second body' }), idem);
    expectStatus(other, 422);
    expect(other.json()).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: expect.stringMatching(/already used with a different request/),
      request_id: expect.any(String),
    });
    expectStatus(await post('/api/v1/qrcodes/bulk', { qrcodes: [qrInput('url', { name: 'First body' })] }, idem), 422);
    expect(await codesNamed('Second body')).toBe(0);
  });

  it('creates one code for 20 parallel requests with one key: the others get 409 (in flight) or the replay', async () => {
    const idem = newKey();
    const body = qrInput('url', { name: 'Parallel' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('/api/v1/qrcodes', body, idem)));
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    expect(answers.filter((res) => res.statusCode === 201 && res.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    const ids = new Set(answers.filter((res) => res.statusCode === 201).map((res) => res.json().id));
    expect(ids.size).toBe(1);
    for (const conflict of answers.filter((res) => res.statusCode === 409)) {
      expect(conflict.json()).toMatchObject({ statusCode: 409, error: 'Conflict', message: expect.stringMatching(/still being processed/) });
    }
    expect(await codesNamed('Parallel')).toBe(1);
    const later = await post('/api/v1/qrcodes', body, idem);
    expect(later.headers['idempotent-replayed']).toBe('true');
    expect(later.json().id).toBe([...ids][0]);
  });

  it('keeps a key 24 hours: after that the same request runs again', async () => {
    const idem = newKey();
    const body = qrInput('url', { name: 'Expiring' });
    expectStatus(await post('/api/v1/qrcodes', body, idem), 201);
    clock.advance(23 * H);
    expect((await post('/api/v1/qrcodes', body, idem)).headers['idempotent-replayed']).toBe('true');
    clock.advance(H + 1000);
    const fresh = await post('/api/v1/qrcodes', body, idem);
    expectStatus(fresh, 201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(await codesNamed('Expiring')).toBe(2);
  });

  it('keeps keys per account: another account with the same key gets its own code', async () => {
    const other = await t.newAccount();
    const idem = newKey();
    const body = qrInput('url', { name: 'Isolated' });
    const mine = await post('/api/v1/qrcodes', body, idem);
    const theirs = await post('/api/v1/qrcodes', body, idem, other.key);
    expectStatus(theirs, 201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(await t.prisma.qrCode.count({ where: { accountId: other.accountId, name: 'Isolated' } })).toBe(1);
    // And a different body under the other account's key does not collide with this one's.
    expectStatus(await post('/api/v1/qrcodes', qrInput('text', { name: 'Isolated 2' }), idem, other.key), 422);
  });

  it('replays a bulk create, partial failures included', async () => {
    const idem = newKey();
    const body = {
      qrcodes: [qrInput('url', { name: 'Bulk A' }), { type: 'url', content: {} }, qrInput('text', { name: 'Bulk B', is_dynamic: true })],
    };
    const first = await post('/api/v1/qrcodes/bulk', body, idem);
    expectStatus(first, 201);
    expect(first.json().summary).toMatchObject({ total_submitted: 3, total_created: 2, total_failed: 1 });
    const again = await post('/api/v1/qrcodes/bulk', body, idem);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().created).toEqual(first.json().created);
    expect(await codesNamed('Bulk A')).toBe(1);
    expect(await codesNamed('Bulk B')).toBe(1);
  });

  it('replays a webhook create without keeping its secret', async () => {
    const idem = newKey();
    const body = { url: 'https://hooks.example.com/idem', events: ['qrcode.created'], enabled: false };
    const first = await post('/api/v1/webhooks', body, idem);
    expectStatus(first, 201);
    expect(first.json().secret).toMatch(/^whsec_/);
    const again = await post('/api/v1/webhooks', body, idem);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toMatchObject({ id: first.json().id, secret: null });
    expect(await t.prisma.webhookEndpoint.count({ where: { accountId } })).toBe(1);
    const stored = await t.prisma.idempotencyKey.findUniqueOrThrow({ where: { accountId_key: { accountId, key: idem } } });
    expect(stored.responseBody).not.toContain(first.json().secret);
  });

  it('frees the key of a request that failed: nothing was created, so it may be retried', async () => {
    const idem = newKey();
    const invalid = await post('/api/v1/qrcodes', { type: 'url', content: { url: 'javascript:alert(1)' }, name: 'Fixed' }, idem);
    expectStatus(invalid, 400);
    const fixed = await post('/api/v1/qrcodes', qrInput('url', { name: 'Fixed' }), idem);
    expectStatus(fixed, 201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it.each([
    ['k'.repeat(256), /at most 255 characters/],
    ['', /must not be empty/],
    ['caf\u00e9', /printable ASCII/],
  ])('refuses the key %j with 400 naming the header', async (idem, message) => {
    const res = await post('/api/v1/qrcodes', qrInput('url', { name: 'Bad key' }), idem);
    expectStatus(res, 400);
    expect(res.json().errors).toEqual([{ field: 'Idempotency-Key', message: expect.stringMatching(message) }]);
    expect(await codesNamed('Bad key')).toBe(0);
  });

  it('accepts a key of 255 characters, and the quoted form of the header draft', async () => {
    expectStatus(await post('/api/v1/qrcodes', qrInput('url', { name: 'Long key' }), 'k'.repeat(255)), 201);
    const idem = newKey();
    expectStatus(await post('/api/v1/qrcodes', qrInput('url', { name: 'Quoted' }), `"${idem}"`), 201);
    expect((await post('/api/v1/qrcodes', qrInput('url', { name: 'Quoted' }), idem)).headers['idempotent-replayed']).toBe('true');
  });

  it('refuses the header sent twice (Node joins the two lines with ", ") with 400 naming it, and creates nothing', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const body = JSON.stringify(qrInput('url', { name: 'Sent twice' }));
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/qrcodes' }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      });
      request.on('error', reject);
      request.setHeader('x-api-key', key);
      request.setHeader('content-type', 'application/json');
      // Two header lines, as a client or proxy that adds its own key sends them.
      request.setHeader('idempotency-key', [newKey(), newKey()]);
      request.end(body);
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ errors: [{ field: 'Idempotency-Key', message: expect.stringMatching(/send it once/) }] });
    expect(await codesNamed('Sent twice')).toBe(0);
  });

  it('does not charge a replay against the rate limit, even once the budget is used up', async () => {
    const limited = await startTestApp({ RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const { key: own } = await limited.newAccount();
      const idem = newKey();
      const body = qrInput('url', { name: 'Budget' });
      const first = await post('/api/v1/qrcodes', body, idem, own, limited);
      expectStatus(first, 201);
      expect(first.headers['x-ratelimit-remaining']).toBe('1');
      for (let i = 0; i < 5; i++) {
        const replay = await post('/api/v1/qrcodes', body, idem, own, limited);
        expectStatus(replay, 201);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(replay.headers['x-ratelimit-remaining']).toBeUndefined();
      }
      expectStatus(await post('/api/v1/qrcodes', qrInput('url', { name: 'Second' }), undefined, own, limited), 201);
      expectStatus(await post('/api/v1/qrcodes', qrInput('url', { name: 'Third' }), undefined, own, limited), 429);
      const replayWhenBlocked = await post('/api/v1/qrcodes', body, idem, own, limited);
      expectStatus(replayWhenBlocked, 201);
      expect(replayWhenBlocked.headers['idempotent-replayed']).toBe('true');
      // A new key is a new request: charged, and refused now.
      expectStatus(await post('/api/v1/qrcodes', body, newKey(), own, limited), 429);
    } finally {
      await limited.close();
    }
  });
});
