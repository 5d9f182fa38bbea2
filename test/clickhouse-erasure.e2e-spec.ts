import { randomBytes } from 'node:crypto';
import { MetricsService } from '../src/infra/observability/metrics.service';
import { ScanBuffer } from '../src/scans/scan-buffer.service';
import { ClickHouseTestServer, hasClickHouseServer } from './support/clickhouse-server';
import { describeWhen } from './support/environment';
import { auth, createQr, eventually, expectStatus, GENEROUS_RATE_LIMIT, recordedScan } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Erasing a code's scans with ClickHouse configured (docs/clickhouse.md#erasure): the
 * erasure reaches ClickHouse's copy through its outbox even when ClickHouse is down when it is asked,
 * analytics read PostgreSQL until it has, and scans stored around it end up alike in both.
 */
describeWhen(hasClickHouseServer)("erasing a code's scans in ClickHouse too (e2e, a clickhouse-server of its own)", () => {
  let server: ClickHouseTestServer;
  let t: TestApp;
  let key: string;
  const database = `qr_erase_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    server = await ClickHouseTestServer.start();
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, CLICKHOUSE_URL: server.url(database), CLICKHOUSE_MAX_LAG_SECONDS: '5' });
    ({ key } = await t.newAccount());
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  const count = async (text: string, ...values: unknown[]) => Number((await t.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(text, ...values))[0].n);
  const pgCount = (codeId: string, beforeMs = Number.MAX_SAFE_INTEGER) =>
    count(
      'SELECT count(*) AS n FROM scan_events WHERE qr_code_id = $1::uuid AND scanned_at < $2::timestamptz',
      codeId,
      new Date(Math.min(beforeMs, 8e15)),
    );
  const chCount = async (codeId: string, beforeMs = Number.MAX_SAFE_INTEGER) =>
    Number(
      (
        await server.query(`SELECT count() FROM ${database}.scan_events WHERE qr_code_id = toUUID('${codeId}') AND scanned_at_ms < ${beforeMs}`)
      ).trim(),
    );
  const outbox = () => count('SELECT count(*) AS n FROM clickhouse_export_outbox');
  const erasures = () => count('SELECT count(*) AS n FROM clickhouse_erasures');
  const reads = async (engine: string) =>
    (await t.app.get(MetricsService).scanAnalyticsReads.get()).values.find((value) => value.labels.engine === engine)?.value ?? 0;

  /** `n` scans of the code at instants from `since` over `spanMs`, stored (and queued for export). */
  async function scan(codeId: string, n: number, since: number, spanMs: number): Promise<void> {
    const buffer = t.app.get(ScanBuffer);
    for (let i = 0; i < n; i++) {
      const bot = i % 11 === 0;
      buffer.record(
        recordedScan(codeId, { at: since + Math.floor((i * spanMs) / n), userAgent: bot ? SLACK : IPHONE, ip: `203.0.113.${i % 30}`, isBot: bot }),
      );
    }
    await buffer.flush();
  }

  async function settled(withinMs: number): Promise<void> {
    const deadline = Date.now() + withinMs;
    while ((await outbox()) > 0 || (await erasures()) > 0) {
      if (Date.now() > deadline) throw new Error(`not settled within ${withinMs} ms: outbox ${await outbox()}, erasures ${await erasures()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Which engine answers /scans of the code now, and its totals. */
  async function scansOf(codeId: string): Promise<{ engine: string; total: number }> {
    const [pg, ch] = [await reads('postgresql'), await reads('clickhouse')];
    const window = `from=${new Date(Date.now() - 30 * DAY).toISOString()}&to=${new Date(Date.now() + HOUR).toISOString()}`;
    const res = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${codeId}/scans?${window}`, headers: auth(key) });
    expectStatus(res, 200);
    const engine = (await reads('clickhouse')) > ch ? 'clickhouse' : (await reads('postgresql')) > pg ? 'postgresql' : 'none';
    return { engine, total: res.json().totals.scans + res.json().totals.bot_scans };
  }

  it('erases the copy once ClickHouse is back, after the batches stored before it and before the ones stored after it', async () => {
    const code = await createQr(t, key, { is_dynamic: true });
    const bystander = await createQr(t, key, { is_dynamic: true });
    const now = Date.now();
    await scan(code.id, 400, now - 10 * DAY, 9 * DAY);
    await scan(bystander.id, 300, now - 10 * DAY, 9 * DAY);
    await settled(30_000);
    expect(await chCount(code.id)).toBe(400);
    expect(await eventually(async () => (await scansOf(code.id)).engine, 'clickhouse', 10_000)).toBe('clickhouse');

    await server.stop();
    const cut = now - 5 * DAY + 1234;
    // Stored before the erasure, not exported yet: the erasure waits for it (it holds scans from before the cut).
    await scan(code.id, 60, cut - 2 * DAY, DAY);
    const waitedFor = await outbox();
    expect(waitedFor).toBeGreaterThan(0);
    const expected = await pgCount(code.id, cut);

    const res = await t.request({
      method: 'DELETE',
      url: `/api/v1/qrcodes/${code.id}/scans?before=${new Date(cut).toISOString()}`,
      headers: auth(key),
    });
    expectStatus(res, 200);
    expect(res.json().deleted_events).toBe(expected);
    const [queued] = await t.prisma.$queryRawUnsafe<Array<{ waits: number }>>('SELECT cardinality(waits_for) AS waits FROM clickhouse_erasures');
    expect(Number(queued.waits)).toBe(waitedFor);
    // Stored after the erasure, with scans from before the cut: they stay in PostgreSQL, so they must stay in ClickHouse.
    await scan(code.id, 30, cut - DAY, HOUR);

    // While the erasure waits, analytics read PostgreSQL, which no longer has the erased scans.
    const left = await pgCount(code.id);
    expect(left).toBe(400 + 60 + 30 - expected);
    expect(await scansOf(code.id)).toEqual({ engine: 'postgresql', total: left });
    await eventually(async () => (await count('SELECT count(*) AS n FROM clickhouse_erasures WHERE last_error IS NOT NULL')) > 0, true, 15_000);
    const metrics = await t.request({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/^clickhouse_erasures_pending 1$/m);

    await server.resume();
    await settled(60_000);
    // ClickHouse has what PostgreSQL has, code by code: the erased scans gone, the 30 stored after the erasure kept.
    expect(await chCount(code.id, cut)).toBe(30);
    expect(await pgCount(code.id, cut)).toBe(30);
    expect(await chCount(code.id)).toBe(left);
    expect(await chCount(bystander.id)).toBe(300);
    expect(await eventually(async () => (await scansOf(code.id)).engine, 'clickhouse', 10_000)).toBe('clickhouse');
    expect(await scansOf(code.id)).toEqual({ engine: 'clickhouse', total: left });
  }, 180_000);
});
