import { HAS_POSTGRES, itWhen } from './support/environment';
import { ScanBuffer } from '../src/scans/scan-buffer.service';
import { ScanBatchWriter } from '../src/scans/scan-batch';
import { ScanStoreRepository } from '../src/scans/scan-store.repository';
import { VisitorHasher } from '../src/scans/visitor-hash';
import { auth, createQr, eventually, GENEROUS_RATE_LIMIT, recordedScan, updateQr } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

describe('redirect host (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key } = await t.newAccount());
  });
  afterAll(() => t.close());

  const scan = (shortCode: string, headers: Record<string, string> = { 'user-agent': IPHONE }) =>
    t.request({ method: 'GET', url: `/r/${shortCode}`, headers });
  const scansOf = async (id: string) => (await t.request({ method: 'GET', url: `/api/v1/qrcodes/${id}`, headers: auth(key) })).json().scans as number;
  const flush = () => t.app.get(ScanBuffer).flush();
  const storedScans = async (id: string) => Number((await t.prisma.qrCode.findUniqueOrThrow({ where: { id } })).scans);

  it('302s a url code to its target with Cache-Control: no-store, without an API key', async () => {
    const code = await createQr(t, key, { content: { url: 'https://example.com/landing?a=1' }, is_dynamic: true });
    const res = await scan(code.short_code);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://example.com/landing?a=1');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('follows an update of the target at once', async () => {
    const code = await createQr(t, key, { content: { url: 'https://example.com/old' }, is_dynamic: true });
    expect((await scan(code.short_code)).headers.location).toBe('https://example.com/old');
    expect((await updateQr(t, key, code.id, { content: { url: 'https://example.com/new' } })).statusCode).toBe(200);
    expect((await scan(code.short_code)).headers.location).toBe('https://example.com/new');
  });

  it('counts 1,000 concurrent redirects of one code exactly once each', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    const answers = await Promise.all(Array.from({ length: 1000 }, () => scan(code.short_code)));
    expect(answers.every((res) => res.statusCode === 302)).toBe(true);
    expect(await scansOf(code.id)).toBe(1000);
    await flush();
    expect(await storedScans(code.id)).toBe(1000);
    expect(await t.prisma.scanEvent.count({ where: { qrCodeId: code.id } })).toBe(1000);
    expect(await scansOf(code.id)).toBe(1000);
    await flush();
    expect(await t.prisma.scanEvent.count({ where: { qrCodeId: code.id } })).toBe(1000);
  });

  it('stores scans as fast as they come: the background flush drains full batches, not one per second', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    for (let i = 0; i < 10; i++) await Promise.all(Array.from({ length: 1000 }, () => scan(code.short_code)));
    // No flush() here: the timers alone (one tick a second) must bring all 10,000 to Postgres.
    expect(await eventually(() => storedScans(code.id), 10_000, 2500)).toBe(10_000);
  });

  it('forgets the ids of batches stored more than a day ago', async () => {
    const store = t.app.get(ScanStoreRepository);
    const code = await createQr(t, key, { is_dynamic: true });
    const batch = new ScanBatchWriter(t.app.get(VisitorHasher)).write([recordedScan(code.id)]);
    expect(await store.storeBatches([batch])).toBe(1);
    await store.forgetBatchesStoredBefore(new Date(Date.now() - 60_000));
    expect(await t.prisma.storedScanBatch.count({ where: { id: batch.id } })).toBe(1);
    await store.forgetBatchesStoredBefore(new Date(Date.now() + 60_000));
    expect(await t.prisma.storedScanBatch.count({ where: { id: batch.id } })).toBe(0);
  });

  it('records time, user agent, referrer, device class, OS, browser and an anonymised visitor, never the IP', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    await t.request({
      method: 'GET',
      url: `/r/${code.short_code}`,
      headers: { 'user-agent': IPHONE, referer: 'https://news.example/x' },
      remoteAddress: '203.0.113.9',
    });
    await flush();
    const [event] = await t.prisma.scanEvent.findMany({ where: { qrCodeId: code.id } });
    expect(event).toMatchObject({
      userAgent: IPHONE,
      referrer: 'https://news.example/x',
      device: 'mobile',
      os: 'iOS',
      browser: 'Mobile Safari',
      isBot: false,
    });
    expect(event.visitorHash).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(event, (_, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('203.0.113.9');
    expect(Date.now() - event.scannedAt.getTime()).toBeLessThan(60_000);
  });

  it('gives the same visitor the same hash and another visitor another', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    for (const ip of ['198.51.100.1', '198.51.100.1', '198.51.100.2']) {
      await t.request({ method: 'GET', url: `/r/${code.short_code}`, headers: { 'user-agent': IPHONE }, remoteAddress: ip });
    }
    await flush();
    const hashes = (await t.prisma.scanEvent.findMany({ where: { qrCodeId: code.id } })).map((e) => e.visitorHash);
    expect(hashes).toHaveLength(3);
    const perVisitor = [...new Set(hashes)].map((hash) => hashes.filter((h) => h === hash).length).sort();
    expect(perVisitor).toEqual([1, 2]);
  });

  it('redirects link-preview bots but flags them and does not count them; HEAD is not a scan', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    expect((await scan(code.short_code, { 'user-agent': SLACK })).statusCode).toBe(302);
    expect((await t.request({ method: 'HEAD', url: `/r/${code.short_code}`, headers: { 'user-agent': IPHONE } })).statusCode).toBe(302);
    expect(await scansOf(code.id)).toBe(0);
    await flush();
    expect(await storedScans(code.id)).toBe(0);
    const events = await t.prisma.scanEvent.findMany({ where: { qrCodeId: code.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ isBot: true, device: 'bot' });
  });

  it('redirects a request without a User-Agent, or with an empty one, but flags it as a bot and does not count it', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    // light-my-request sends a user agent of its own unless told that there is none.
    const withoutAgent = { 'user-agent': undefined } as unknown as Record<string, string>;
    expect((await t.request({ method: 'GET', url: `/r/${code.short_code}`, headers: withoutAgent })).statusCode).toBe(302);
    expect((await scan(code.short_code, { 'user-agent': '' })).statusCode).toBe(302);
    expect(await scansOf(code.id)).toBe(0);
    await flush();
    expect(await storedScans(code.id)).toBe(0);
    const events = await t.prisma.scanEvent.findMany({ where: { qrCodeId: code.id } });
    expect(events.map(({ isBot, device, userAgent }) => ({ isBot, device, userAgent }))).toEqual([
      { isBot: true, device: 'bot', userAgent: null },
      { isBot: true, device: 'bot', userAgent: null },
    ]);
  });

  it('answers a paused code with a 410 page, uncounted, and redirects again once active', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    await updateQr(t, key, code.id, { status: 'paused' });
    const paused = await scan(code.short_code);
    expect(paused.statusCode).toBe(410);
    expect(paused.headers['content-type']).toMatch(/text\/html/);
    expect(paused.headers.location).toBeUndefined();
    expect(paused.body).toMatch(/paused/i);
    expect((await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}`, headers: auth(key) })).json().status).toBe('paused');
    await updateQr(t, key, code.id, { status: 'active' });
    expect((await scan(code.short_code)).statusCode).toBe(302);
    expect(await scansOf(code.id)).toBe(1);
  });

  it('answers an expired code with a 410 page and reports status expired', async () => {
    const code = await createQr(t, key, { is_dynamic: true, expires_at: new Date(Date.now() + 60_000).toISOString() });
    expect((await scan(code.short_code)).statusCode).toBe(302);
    await t.prisma.qrCode.update({ where: { id: code.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await updateQr(t, key, code.id, { name: 'touch to refresh the link cache' });
    const expired = await scan(code.short_code);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toMatch(/expired/i);
    expect((await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}`, headers: auth(key) })).json().status).toBe('expired');
    expect(await scansOf(code.id)).toBe(1);
  });

  it('answers unknown and deleted codes with a 404 page', async () => {
    expect((await scan('Zz9Zz9Zz')).statusCode).toBe(404);
    expect((await scan('<script>')).statusCode).toBe(404);
    const code = await createQr(t, key, { is_dynamic: true });
    expect((await scan(code.short_code)).statusCode).toBe(302);
    await t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${code.id}`, headers: auth(key) });
    const gone = await scan(code.short_code);
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['content-type']).toMatch(/text\/html/);
    await flush();
    expect(await t.prisma.scanEvent.count({ where: { qrCodeId: code.id } })).toBe(0);
  });

  it('serves other types as an escaped HTML page under a strict CSP', async () => {
    const code = await createQr(t, key, { type: 'text', content: { text: '<script>alert(1)</script> & "quotes"' }, is_dynamic: true });
    const res = await scan(code.short_code);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
    expect(await scansOf(code.id)).toBe(1);
  });

  it('never stores nor follows a javascript: target', async () => {
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', 'data:text/html,x']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/qrcodes',
        headers: auth(key),
        payload: { type: 'url', content: { url }, is_dynamic: true },
      });
      expect(res.statusCode).toBe(400);
    }
    // Even a row written around the API is refused at redirect time.
    const code = await createQr(t, key, { is_dynamic: true });
    await t.prisma.qrCode.update({ where: { id: code.id }, data: { contentString: 'javascript:alert(1)' } });
    await updateQr(t, key, code.id, { name: 'refresh link cache' });
    const res = await scan(code.short_code);
    expect(res.headers.location).toBeUndefined();
    expect(res.statusCode).toBe(404);
  });

  it('answers any other path or method under /r/ with the 404 page and a request id', async () => {
    for (const [method, url] of [
      ['GET', '/r/'],
      ['GET', '/r/abc/def'],
      ['POST', '/r/abcdefgh'],
      ['GET', '/r'],
    ] as const) {
      const res = await t.request({ method, url, headers: { 'x-request-id': 'rid-r404' } });
      expect(res.statusCode).toBe(404);
      expect(res.headers['x-request-id']).toBe('rid-r404');
      // '/r' without the slash is not the redirect host's: the API's 404, in the error shape.
      if (url === '/r') expect(res.json()).toMatchObject({ statusCode: 404, request_id: 'rid-r404' });
      else expect(res.headers['content-type']).toMatch(/text\/html/);
    }
  });

  it('puts X-Request-Id on redirects and observes them in the request metrics', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    const res = await t.request({ method: 'GET', url: `/r/${code.short_code}`, headers: { 'x-request-id': 'rid-scan' } });
    expect(res.statusCode).toBe(302);
    expect(res.headers['x-request-id']).toBe('rid-scan');
    const metrics = (await t.request({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/r\/:shortCode",status="302"\} [1-9]/);
  });

  /**
   * scan_events has no foreign key (migration 20261122160000): a store locks each code of its batch
   * once, and deleting codes deletes their events in the same statement. Neither order of a store and
   * a delete may leave events of a deleted code. Needs two connections: PostgreSQL only.
   */
  describe('scan storage racing a code deletion', () => {
    const lockWaiters = async () =>
      Number(
        (
          await t.prisma.$queryRaw<
            Array<{ n: number }>
          >`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`
        )[0].n,
      );
    const eventsOf = (codeId: string) => t.prisma.scanEvent.count({ where: { qrCodeId: codeId } });

    /** Runs `first` in a transaction that stays open until `second` waits for one of its locks. */
    async function whileHeld(
      first: (tx: Parameters<Parameters<typeof t.prisma.$transaction>[0]>[0]) => Promise<unknown>,
      second: () => Promise<unknown>,
    ): Promise<unknown> {
      let release!: () => void;
      let held!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const holding = new Promise<void>((resolve) => (held = resolve));
      const transaction = t.prisma.$transaction(
        async (tx) => {
          await first(tx);
          held();
          await released;
        },
        { timeout: 15_000 },
      );
      await holding;
      const waiting = second();
      expect(await eventually(lockWaiters, 1, 5000)).toBe(1);
      release();
      await transaction;
      return waiting;
    }

    itWhen(HAS_POSTGRES)('a batch stored while its code is being deleted stores nothing once the delete commits', async () => {
      const code = await createQr(t, key, { is_dynamic: true });
      const stored = await whileHeld(
        (tx) => tx.$executeRaw`DELETE FROM qr_codes WHERE id = ${code.id}::uuid`,
        () =>
          t.app
            .get(ScanStoreRepository)
            .storeBatches([new ScanBatchWriter(t.app.get(VisitorHasher)).write([recordedScan(code.id), recordedScan(code.id)])]),
      );
      expect(stored).toBe(0);
      expect(await eventsOf(code.id)).toBe(0);
    });

    itWhen(HAS_POSTGRES)('a delete that waits for a store in progress removes what that store wrote', async () => {
      const code = await createQr(t, key, { is_dynamic: true });
      const deleted = await whileHeld(
        // What ScanStoreRepository.storeBatches does: lock the code, then insert its events.
        async (tx) => {
          await tx.$queryRaw`SELECT id FROM qr_codes WHERE id = ${code.id}::uuid FOR KEY SHARE`;
          await tx.$executeRaw`INSERT INTO scan_events (event_id, qr_code_id, scanned_at, device, os, browser, visitor_hash)
            VALUES (gen_random_uuid(), ${code.id}::uuid, now(), 'mobile', 'iOS', 'Safari', ${'f'.repeat(32)})`;
        },
        () => t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${code.id}`, headers: auth(key) }),
      );
      expect((deleted as { statusCode: number }).statusCode).toBe(200);
      expect(await eventsOf(code.id)).toBe(0);
    });
  });
});

describe('TRUST_PROXY (e2e)', () => {
  const visitorsFor = async (trustProxy: string) => {
    const t = await startTestApp({ ...GENEROUS_RATE_LIMIT, TRUST_PROXY: trustProxy });
    try {
      const { key } = await t.newAccount();
      const code = await createQr(t, key, { is_dynamic: true });
      for (const forwarded of ['198.51.100.7', '198.51.100.8']) {
        await t.request({
          method: 'GET',
          url: `/r/${code.short_code}`,
          headers: { 'user-agent': IPHONE, 'x-forwarded-for': forwarded },
          remoteAddress: '10.0.0.1',
        });
      }
      await t.app.get(ScanBuffer).flush();
      return new Set((await t.prisma.scanEvent.findMany({ where: { qrCodeId: code.id } })).map((e) => e.visitorHash)).size;
    } finally {
      await t.close();
    }
  };

  it('ignores X-Forwarded-For by default (one visitor behind one address)', async () => {
    expect(await visitorsFor('0')).toBe(1);
  });

  it('believes X-Forwarded-For across the configured proxy hops', async () => {
    expect(await visitorsFor('1')).toBe(2);
  });
});
