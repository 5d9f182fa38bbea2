import { randomBytes, randomUUID } from 'node:crypto';
import type { QrCodeId } from '../../common/ids/resource-ids';
import { loadAppConfig } from '../../config/app-config';
import { ClickHouseConnection } from '../../infra/clickhouse/clickhouse-connection';
import { clickHouseSchema } from '../../infra/clickhouse/clickhouse-schema';
import { ClickHouseTestServer, hasClickHouseServer } from '../../../test/support/clickhouse-server';
import { describeWhen } from '../../../test/support/environment';
import { ClickHouseRetentionRepository } from './clickhouse-retention.repository';

jest.setTimeout(60_000);

/** Retention in ClickHouse's copy, against a clickhouse-server of the test's own (Debian's 18.16 in CI). */
describeWhen(hasClickHouseServer)('ClickHouseRetentionRepository (medium, a clickhouse-server of its own)', () => {
  let server: ClickHouseTestServer;
  let connection: ClickHouseConnection;
  let retention: ClickHouseRetentionRepository;
  const database = `qr_retention_${randomBytes(4).toString('hex')}`;
  const account = randomUUID();
  const [trimmed, untouched] = [randomUUID() as QrCodeId, randomUUID() as QrCodeId];

  beforeAll(async () => {
    server = await ClickHouseTestServer.start();
    const config = loadAppConfig({ CLICKHOUSE_URL: server.url(database), LOG_LEVEL: 'silent' });
    connection = new ClickHouseConnection(config);
    retention = new ClickHouseRetentionRepository(connection, config);
    for (const statement of clickHouseSchema(connection.database)) await connection.command(statement);
    const times = ['2026-07-20T10:00:00Z', '2026-08-31T23:59:59Z', '2026-09-05T12:00:00Z', '2026-09-20T12:00:00Z', '2026-10-01T00:00:00Z'];
    await connection.insert(
      'scan_events',
      [trimmed, untouched].flatMap((code) =>
        times.map((time) => ({
          account_id: account,
          qr_code_id: code,
          scanned_at: Math.floor(Date.parse(time) / 1000),
          scanned_at_ms: Date.parse(time),
          event_id: randomUUID(),
          batch_id: randomUUID(),
          visitor_hash: 'a'.repeat(32),
          is_bot: 0,
          device: 'mobile',
          os: 'iOS',
          browser: 'Mobile Safari',
          referrer: null,
          referrer_host: 'direct',
          user_agent: null,
          country: null,
          city: null,
          rule_index: null,
          arm_index: null,
        })),
      ),
    );
  });
  afterAll(async () => {
    await connection?.onApplicationShutdown();
    await server?.close();
  });

  const months = async (code: QrCodeId) =>
    (
      await server.query(
        `SELECT toYYYYMM(scanned_at) AS m, count() FROM ${database}.scan_events WHERE qr_code_id = toUUID('${code}') GROUP BY m ORDER BY m`,
      )
    )
      .trim()
      .split('\n')
      .filter(Boolean);

  it('drops the months entirely before the cutoff, and keeps the month holding it whole', async () => {
    expect(await retention.dropMonthsBefore(new Date('2026-09-10T00:00:00Z'))).toEqual(['202607', '202608']);
    expect(await months(untouched)).toEqual(['202609\t2', '202610\t1']);
    expect(await retention.dropMonthsBefore(new Date('2026-09-10T00:00:00Z'))).toEqual([]);
  });

  it("deletes a code's rows before its cutoff with one mutation, only that code's, and asks for none when nothing matches", async () => {
    expect(await retention.deleteCodeScansBefore([{ codeIds: [trimmed], before: new Date('2026-09-20T00:00:00Z') }])).toBe(true);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (await months(trimmed)).join() !== '202609\t1,202610\t1') await new Promise((r) => setTimeout(r, 200));
    expect(await months(trimmed)).toEqual(['202609\t1', '202610\t1']);
    expect(await months(untouched)).toEqual(['202609\t2', '202610\t1']);
    const pending = async () =>
      Number((await server.query(`SELECT count() FROM system.mutations WHERE database = '${database}' AND is_done = 0`)).trim());
    while (Date.now() < deadline && (await pending()) > 0) await new Promise((r) => setTimeout(r, 200));
    expect(await retention.deleteCodeScansBefore([{ codeIds: [trimmed], before: new Date('2026-09-20T00:00:00Z') }])).toBe(false);
  });
});
