import { describeWhen, HAS_POSTGRES } from './support/environment';
import { ScanBuffer } from '../src/scans/scan-buffer.service';
import { auth, createQr, GENEROUS_RATE_LIMIT } from './support/factories';
import { TcpOutageProxy } from './support/tcp-outage-proxy';
import { startTestApp, type TestApp } from './support/test-app';

/** With the database unreachable, requests answer 503 within 2 s and recover by themselves. */
describeWhen(HAS_POSTGRES)('database outage (e2e)', () => {
  const serverUrl = process.env.DATABASE_URL!;
  let proxy: ReturnType<typeof TcpOutageProxy.forUrl>;
  let t: TestApp;
  let key: string;
  let accountId: string;

  beforeAll(async () => {
    proxy = TcpOutageProxy.forUrl(serverUrl, 5432);
    await proxy.start();
    t = await startTestApp(GENEROUS_RATE_LIMIT, {
      databaseUrl: (clone) => {
        const through = new URL(clone);
        through.hostname = '127.0.0.1';
        through.port = String(proxy.port);
        return through.toString();
      },
    });
    ({ key, accountId } = await t.newAccount());
  });
  afterAll(async () => {
    await proxy?.restore();
    await t.close();
    await proxy?.cut();
  });

  async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
    const started = Date.now();
    const result = await run();
    return { result, ms: Date.now() - started };
  }

  it('answers 503 in the error shape within 2 s, writes nothing half-way, and recovers without a restart', async () => {
    await createQr(t, key);
    await proxy.cut();

    const list = await timed(() => t!.request({ method: 'GET', url: '/api/v1/qrcodes', headers: auth(key) }));
    expect(list.result.statusCode).toBe(503);
    expect(list.ms).toBeLessThan(2500);
    expect(list.result.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable', request_id: expect.any(String) });
    expect(list.result.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|prisma/i);

    const create = await timed(() =>
      t!.request({ method: 'POST', url: '/api/v1/qrcodes', headers: auth(key), payload: { type: 'text', content: { text: 'during outage' } } }),
    );
    expect(create.result.statusCode).toBe(503);
    expect(create.ms).toBeLessThan(2500);

    // The redirect host, for a short code it has not cached: its own 503 page.
    const scan = await timed(() => t!.request({ method: 'GET', url: '/r/Zz9Zz9Zz' }));
    expect(scan.result.statusCode).toBe(503);
    expect(scan.ms).toBeLessThan(2500);
    expect(scan.result.headers['content-type']).toMatch(/text\/html/);
    expect(scan.result.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|prisma/i);

    const ready = await timed(() => t!.request({ method: 'GET', url: '/health/ready' }));
    expect(ready.result.statusCode).toBe(503);
    expect(ready.ms).toBeLessThan(2500);
    expect(ready.result.json().components.database.status).toBe('down');

    await proxy.restore();
    let recovered = 0;
    for (let attempt = 0; attempt < 40 && recovered !== 200; attempt++) {
      recovered = (await t.request({ method: 'GET', url: '/api/v1/qrcodes', headers: auth(key) })).statusCode;
      if (recovered !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(recovered).toBe(200);
    const codes = await t.prisma.qrCode.findMany({ where: { accountId } });
    expect(codes.map((code) => code.contentString)).not.toContain('during outage');
    expect((await t.request({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
  });

  it('stages scans while the database is unreachable, shows them in scans meanwhile, and stores each exactly once when it is back', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    const scan = () =>
      t!.request({
        method: 'GET',
        url: `/r/${code.short_code}`,
        headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)' },
      });
    expect((await scan()).statusCode).toBe(302); // the link is now in the instance's near cache
    await t.app.get(ScanBuffer).flush();

    await proxy.cut();
    for (let i = 0; i < 5; i++) expect((await scan()).statusCode).toBe(302);
    await t.app.get(ScanBuffer).flush(500);

    await proxy.restore();
    // Staged, not stored: the API shows them (pending) before the database has them.
    let shown = 0;
    for (let attempt = 0; attempt < 40 && shown !== 6; attempt++) {
      const res = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}`, headers: auth(key) });
      if (res.statusCode === 200) shown = res.json().scans;
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(shown).toBe(6);
    await t.app.get(ScanBuffer).flush(15_000);
    expect(Number((await t.prisma.qrCode.findUniqueOrThrow({ where: { id: code.id } })).scans)).toBe(6);
    expect(await t.prisma.scanEvent.count({ where: { qrCodeId: code.id } })).toBe(6);
    expect((await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}`, headers: auth(key) })).json().scans).toBe(6);
  });
});
