import { PassThrough } from 'node:stream';
import { auth, createQr, GENEROUS_RATE_LIMIT } from './support/factories';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app';

/** JSON logs carry the request id; API keys and admin tokens never appear in them. */
describe('logs (e2e)', () => {
  let t: TestApp;
  let logs = '';

  beforeAll(async () => {
    const destination = new PassThrough();
    destination.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, LOG_LEVEL: 'info' }, { logDestination: destination });
  });
  afterAll(() => t.close());

  const lines = () =>
    logs
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));

  it('logs each request as JSON with its request id, and never a key or admin token', async () => {
    const { key } = await t.newAccount();
    const created = (
      await t.request({ method: 'POST', url: '/api/v1/admin/api-keys', headers: { 'x-admin-token': ADMIN_TOKEN }, payload: { name: 'logged' } })
    ).json();
    await createQr(t, key);
    await t.request({ method: 'GET', url: '/api/v1/qrcodes', headers: { ...auth(key), 'x-request-id': 'log-trace-1' } });
    await t.request({ method: 'GET', url: `/api/v1/qrcodes?api_key=${key}` });
    await t.request({ method: 'GET', url: '/api/v1/qrcodes', headers: auth('qr_live_' + 'w'.repeat(40)) });

    const entries = lines();
    expect(entries.length).toBeGreaterThanOrEqual(5);
    const traced = entries.find((entry) => entry.req?.id === 'log-trace-1');
    expect(traced).toMatchObject({
      req: { method: 'GET', url: '/api/v1/qrcodes', headers: { 'x-api-key': '[redacted]' } },
      res: { statusCode: 200 },
    });
    expect(logs).not.toContain(key);
    expect(logs).not.toContain(created.key);
    expect(logs).not.toContain(ADMIN_TOKEN);
    expect(logs).not.toContain('w'.repeat(40));
    expect(logs).toContain('[redacted]');
  });

  it('does not log scans of the redirect host (no visitor addresses in logs)', async () => {
    const { key } = await t.newAccount();
    const code = await createQr(t, key, { is_dynamic: true });
    await t.request({ method: 'GET', url: `/r/${code.short_code}`, headers: { 'x-forwarded-for': '203.0.113.77' }, remoteAddress: '198.51.100.99' });
    expect(logs).not.toContain(code.short_code);
    expect(logs).not.toContain('203.0.113.77');
    expect(logs).not.toContain('198.51.100.99');
  });

  it('does not log liveness probes and metric scrapes', async () => {
    await t.request({ method: 'GET', url: '/health/live', headers: { 'x-request-id': 'probe-live' } });
    await t.request({ method: 'GET', url: '/metrics', headers: { 'x-request-id': 'probe-metrics' } });
    await t.request({ method: 'GET', url: '/health/ready', headers: { 'x-request-id': 'probe-ready' } });
    expect(logs).not.toContain('probe-live');
    expect(logs).not.toContain('probe-metrics');
    expect(logs).toContain('probe-ready');
  });
});
