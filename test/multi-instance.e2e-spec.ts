import { RedisLeaseSource } from '../src/infra/rate-limit/redis-lease-source';
import { ScanBuffer } from '../src/scans/scan-buffer.service';
import { auth, createQr, eventually, GENEROUS_RATE_LIMIT, updateQr } from './support/factories';
import { describeWhen, HAS_REDIS } from './support/environment';
import { ADMIN_TOKEN, type Sibling, startTestApp, type TestApp } from './support/test-app';

const BROWSER = { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36' };

/** Near caches are per process: these prove that changes made through one instance reach another at once. */
describeWhen(HAS_REDIS)('two instances behind a load balancer (e2e)', () => {
  let t: TestApp;
  let other: Sibling;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    other = await t.startSibling();
    ({ key } = await t.newAccount());
  });
  afterAll(() => t?.close());

  it('a redirect on instance B follows an update made on instance A', async () => {
    const code = await createQr(t, key, { content: { url: 'https://example.com/one' }, is_dynamic: true });
    expect((await other.request({ url: `/r/${code.short_code}` })).headers.location).toBe('https://example.com/one');
    // Invalidations travel by Redis pub/sub: B sees them within moments, far inside the 30 s TTL backstop.
    await updateQr(t, key, code.id, { content: { url: 'https://example.com/two' } });
    expect(
      await eventually(async () => (await other.request({ url: `/r/${code.short_code}` })).headers.location, 'https://example.com/two', 3000),
    ).toBe('https://example.com/two');
    await updateQr(t, key, code.id, { status: 'paused' });
    expect(await eventually(async () => (await other.request({ url: `/r/${code.short_code}` })).statusCode, 410, 3000)).toBe(410);
  });

  it('a search on instance B shows a write made on instance A at once (search results are cached per account version)', async () => {
    const searchOnB = async () => (await other.request({ url: '/api/v1/qrcodes?search=tapir', headers: auth(key) })).json();
    expect((await searchOnB()).pagination.total).toBe(0);
    const code = await createQr(t, key, { name: 'Tapir poster' });
    const found = await searchOnB();
    expect(found.pagination.total).toBe(1);
    expect(found.data[0].id).toBe(code.id);
    await updateQr(t, key, code.id, { name: 'Renamed' });
    expect((await searchOnB()).pagination.total).toBe(0);
  });

  it('a key revoked on instance A is refused by instance B', async () => {
    const created = (
      await t.request({ method: 'POST', url: '/api/v1/admin/api-keys', headers: { 'x-admin-token': ADMIN_TOKEN }, payload: { name: 'rotating' } })
    ).json();
    expect((await other.request({ url: '/api/v1/qrcodes', headers: auth(created.key) })).statusCode).toBe(200);
    await t.request({ method: 'DELETE', url: `/api/v1/admin/api-keys/${created.id}`, headers: { 'x-admin-token': ADMIN_TOKEN } });
    expect(await eventually(async () => (await other.request({ url: '/api/v1/qrcodes', headers: auth(created.key) })).statusCode, 401, 3000)).toBe(
      401,
    );
  });

  it('instance B serves the new image after a style update on instance A, and 404 after a delete', async () => {
    const code = await createQr(t, key);
    const before = await other.request({ url: `/api/v1/qrcodes/${code.id}/image`, headers: auth(key) });
    await updateQr(t, key, code.id, { style: { dotsOptions: { color: '#4a148c' } } });
    const image = () => other.request({ url: `/api/v1/qrcodes/${code.id}/image`, headers: auth(key) });
    await eventually(async () => (await image()).headers.etag !== before.headers.etag, true, 3000);
    const after = await image();
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body.toLowerCase()).toContain('#4a148c');
    await t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${code.id}`, headers: auth(key) });
    expect(await eventually(async () => (await image()).statusCode, 404, 3000)).toBe(404);
  });

  it('counts scans on both instances exactly once, visible through either', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    await Promise.all([
      ...Array.from({ length: 150 }, () => t.request({ method: 'GET', url: `/r/${code.short_code}`, headers: BROWSER })),
      ...Array.from({ length: 250 }, () => other.request({ url: `/r/${code.short_code}`, headers: BROWSER })),
    ]);
    await other.app.get(ScanBuffer).flush();
    await t.app.get(ScanBuffer).flush();
    expect(Number((await t.prisma.qrCode.findUniqueOrThrow({ where: { id: code.id } })).scans)).toBe(400);
    expect(await t.prisma.scanEvent.count({ where: { qrCodeId: code.id } })).toBe(400);
    const viaOther = (await other.request({ url: `/api/v1/qrcodes/${code.id}`, headers: auth(key) })).json();
    expect(viaOther.scans).toBe(400);
  });
});

describeWhen(HAS_REDIS)('two instances share one rate-limit budget through Redis (e2e)', () => {
  let t: TestApp;
  let other: Sibling;

  beforeAll(async () => {
    // 100 writes a minute, so 1,000 reads: leases of up to 10 hits.
    t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100' });
    other = await t.startSibling();
  });
  afterAll(() => t?.close());

  it('together they admit exactly the limit, with a Redis round trip per lease rather than per request', async () => {
    const { key } = await t.newAccount();
    const leases = jest.spyOn(RedisLeaseSource.prototype, 'take');
    const statuses: number[] = [];
    // Waves of concurrent reads on both instances until both refuse.
    for (let wave = 0; wave === 0 || (wave < 100 && !statuses.slice(-40).every((status) => status === 429)); wave++) {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 ? other : t).request({ url: '/api/v1/folders', headers: auth(key) })),
      );
      statuses.push(...answers.map((answer) => answer.statusCode));
    }
    const leased = leases.mock.calls.map(([, want]) => want);
    leases.mockRestore();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1000);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(leased.length).toBeGreaterThan(0);
    expect(leased.length).toBeLessThan(300);
    expect(Math.max(...leased)).toBe(10);
    const refused = await other.request({ url: '/api/v1/folders', headers: auth(key) });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['x-ratelimit-limit']).toBe('1000');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
