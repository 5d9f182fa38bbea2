import { Logger } from '@nestjs/common';
import { sql } from 'kysely';
import type { AccountId } from '../../common/ids/account-id';
import type { QrCodeId } from '../../common/ids/resource-ids';
import type { Clock } from '../../common/time/clock';
import { loadAppConfig } from '../../config/app-config';
import { ClickHouseConnection } from '../../infra/clickhouse/clickhouse-connection';
import { HAS_POSTGRES, itWhen } from '../../../test/support/environment';
import { useMediumDatabase } from '../../../test/support/medium';
import { RowFactory } from '../../../test/support/row-factories';
import { ClickHouseRetentionRepository } from '../clickhouse/clickhouse-retention.repository';
import { ScanRetentionRepository } from './scan-retention.repository';
import { ScanRetention } from './scan-retention.service';

/**
 * Scan maintenance against the database (PostgreSQL, or PGlite without DATABASE_URL), with a clock.
 * The tests share one database whose partitions are global: each works in months of its own.
 */
describe('ScanRetention (medium)', () => {
  const db = useMediumDatabase();
  let rows: RowFactory;
  let repository: ScanRetentionRepository;
  let account: AccountId;
  let now = new Date();
  const clock: Clock = { now: () => now };

  beforeAll(() => {
    // What each step did is logged; the tests read its report instead.
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    rows = new RowFactory(db.tables);
    repository = new ScanRetentionRepository(db.database);
  });

  beforeEach(async () => {
    account = await rows.account();
  });

  const retention = (env: Record<string, string> = {}) => {
    const config = loadAppConfig({ LOG_LEVEL: 'silent', ...env });
    return new ScanRetention(repository, new ClickHouseRetentionRepository(new ClickHouseConnection(config), config), config, clock);
  };
  const run = <T>(query: ReturnType<typeof sql<T>>) => query.execute(db.tables).then((result) => result.rows);

  const partitions = async () =>
    (
      await run(sql<{ name: string }>`
        SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'scan_events'::regclass ORDER BY 1`)
    ).map((row) => row.name);

  /** Human scans of a code at these instants (a visitor each), straight into scan_events. */
  const insertScans = (codeId: QrCodeId, times: readonly string[]) =>
    run(sql`
      INSERT INTO scan_events (event_id, qr_code_id, scanned_at, device, os, browser, visitor_hash, referrer, country)
      SELECT gen_random_uuid(), ${codeId}::uuid, t, 'mobile', 'iOS', 'Mobile Safari', md5(t::text || random()::text), 'https://news.example/a', 'DE'
      FROM unnest(${`{${times.join(',')}}`}::timestamptz[]) AS t`);
  const buildRollups = (codeIds: readonly QrCodeId[]) =>
    run(sql`SELECT 1 AS built FROM scan_rollups_build(${`{${codeIds.join(',')}}`}::uuid[], '-infinity'::date, 'infinity'::date)`);

  /** A code's scans per UTC day, `{ '2026-09-01': 2, … }`. */
  const scansPerDay = async (codeId: QrCodeId) =>
    Object.fromEntries(
      (
        await run(sql<{ day: string; n: number }>`
          SELECT to_char(scanned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n
          FROM scan_events WHERE qr_code_id = ${codeId}::uuid GROUP BY 1 ORDER BY 1`)
      ).map((row) => [row.day, Number(row.n)]),
    );
  /** A code's rollups: its days' scans, its dimension values' rows per day, and its account's days' scans. */
  const rollupsOf = async (codeId: QrCodeId) => ({
    days: Object.fromEntries(
      (
        await run(sql<{ day: string; scans: number }>`
          SELECT to_char(day, 'YYYY-MM-DD') AS day, scans FROM scan_code_days WHERE qr_code_id = ${codeId}::uuid ORDER BY 1`)
      ).map((row) => [row.day, Number(row.scans)]),
    ),
    valueDays: (
      await run(sql<{ day: string }>`
        SELECT DISTINCT to_char(day, 'YYYY-MM-DD') AS day FROM scan_code_day_values WHERE qr_code_id = ${codeId}::uuid ORDER BY 1`)
    ).map((row) => row.day),
  });
  const accountDays = async (accountId: AccountId) =>
    Object.fromEntries(
      (
        await run(sql<{ day: string; scans: number }>`
          SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(scans)::int AS scans
          FROM scan_account_days WHERE account_id = ${accountId}::uuid GROUP BY 1 ORDER BY 1`)
      ).map((row) => [row.day, Number(row.scans)]),
    );
  const accountValueDays = async (accountId: AccountId) =>
    (
      await run(sql<{ day: string }>`
        SELECT DISTINCT to_char(day, 'YYYY-MM-DD') AS day FROM scan_account_day_values WHERE account_id = ${accountId}::uuid ORDER BY 1`)
    ).map((row) => row.day);

  it('creates this month and the next two ahead, across a month and a year boundary', async () => {
    const maintenance = retention();
    now = new Date('2026-11-30T23:59:00Z');
    const first = await maintenance.step();
    expect(first.failed).toEqual([]);
    expect(await partitions()).toEqual(expect.arrayContaining(['scan_events_p202611', 'scan_events_p202612', 'scan_events_p202701']));
    expect(await partitions()).not.toContain('scan_events_p202702');

    now = new Date('2026-12-31T23:59:00Z');
    const second = await maintenance.step();
    expect(second.monthsCreated).toEqual(['scan_events_p202702']);
    expect(await partitions()).toEqual(expect.arrayContaining(['scan_events_p202612', 'scan_events_p202701', 'scan_events_p202702']));
    now = new Date('2027-01-01T00:00:00Z');
    expect((await maintenance.step()).monthsCreated).toEqual(['scan_events_p202703']);
    expect((await maintenance.step()).monthsCreated).toEqual([]);
  });

  it('moves scans that landed in the default partition into their month when it is created', async () => {
    const code = await rows.dynamicCode(account);
    await insertScans(code.id, ['2031-05-10T08:00:00Z', '2031-05-31T23:59:59.999Z', '2031-06-01T00:00:00Z']);
    const inDefault = () =>
      run(sql<{ n: number }>`SELECT count(*)::int AS n FROM scan_events_default WHERE qr_code_id = ${code.id}::uuid`).then((r) => Number(r[0].n));
    expect(await inDefault()).toBe(3);

    now = new Date('2031-04-15T12:00:00Z');
    const report = await retention().step();
    expect(report.monthsCreated).toEqual(['scan_events_p203104', 'scan_events_p203105', 'scan_events_p203106']);
    expect(await inDefault()).toBe(0);
    const [may] = await run(sql<{ n: number }>`SELECT count(*)::int AS n FROM scan_events_p203105 WHERE qr_code_id = ${code.id}::uuid`);
    const [june] = await run(sql<{ n: number }>`SELECT count(*)::int AS n FROM scan_events_p203106 WHERE qr_code_id = ${code.id}::uuid`);
    expect([Number(may.n), Number(june.n)]).toEqual([2, 1]);
  });

  it('sweeps the visitor sets of days before yesterday’s eve, and keeps the recent ones', async () => {
    const code = await rows.dynamicCode(account);
    const hash = (n: number) => String(n).padStart(32, '0');
    for (const [day, n] of [
      ['2026-11-24', 1],
      ['2026-11-25', 2],
      ['2026-11-26', 3],
      ['2026-11-27', 4],
    ] as const)
      await run(sql`INSERT INTO scan_day_visitors (qr_code_id, day, visitor_hash) VALUES (${code.id}::uuid, ${day}::date, ${hash(n)})`);
    now = new Date('2026-11-27T10:00:00Z');
    await retention().step();
    const left = await run(sql<{ day: string }>`
      SELECT to_char(day, 'YYYY-MM-DD') AS day FROM scan_day_visitors WHERE qr_code_id = ${code.id}::uuid ORDER BY 1`);
    expect(left.map((row) => row.day)).toEqual(['2026-11-25', '2026-11-26', '2026-11-27']);
  });

  it('drops whole months past SCAN_RETENTION_DAYS, deletes the edge rows and older rollups, and nothing inside the window', async () => {
    const other = await rows.account();
    const code = await rows.dynamicCode(account);
    const neighbour = await rows.dynamicCode(other);
    for (const month of ['2026-08-15', '2026-09-15', '2026-10-15']) await repository.ensureMonth(new Date(`${month}T00:00:00Z`));
    const times = [
      '2026-08-03T10:00:00Z', // a month entirely before the cutoff
      '2026-08-31T23:59:59.999Z',
      '2026-09-01T00:00:00Z', // the cutoff's month, before it
      '2026-09-09T23:59:59.999Z',
      '2026-09-10T00:00:00Z', // the cutoff's month, inside the window
      '2026-09-10T00:00:00.001Z',
      '2026-09-30T12:00:00Z',
      '2026-10-19T08:00:00Z', // a later month
      '2026-10-20T09:00:00Z', // today
    ];
    await insertScans(code.id, times);
    await insertScans(neighbour.id, times);
    // Months without a partition land in the default one: one before the cutoff, one after it.
    await insertScans(code.id, ['2026-07-05T00:00:00Z', '2031-07-01T00:00:00Z']);
    await buildRollups([code.id, neighbour.id]);
    const before = { scans: await scansPerDay(code.id), rollups: await rollupsOf(code.id), account: await accountDays(account) };
    expect(before.scans).toMatchObject({ '2026-07-05': 1, '2026-08-03': 1, '2026-09-01': 1, '2026-09-10': 2, '2031-07-01': 1 });

    // 40 days before 2026-10-20: the cutoff is 2026-09-10T00:00Z.
    now = new Date('2026-10-20T10:00:00Z');
    const maintenance = retention({ SCAN_RETENTION_DAYS: '40' });
    const report = await maintenance.step();
    expect(report.failed).toEqual([]);
    expect(report.deploymentCutoff).toEqual(new Date('2026-09-10T00:00:00Z'));
    expect(report.partitionsDropped).toEqual(['scan_events_p202608']);
    expect(await partitions()).toEqual(expect.arrayContaining(['scan_events_p202609', 'scan_events_p202610', 'scan_events_default']));
    expect(await partitions()).not.toContain('scan_events_p202608');
    expect(report.edgeScansDeleted).toBe(2 + 2 + 1); // both codes' September edge rows, and the default partition's July scan

    const kept = Object.fromEntries(Object.entries(before.scans).filter(([day]) => day >= '2026-09-10'));
    expect(await scansPerDay(code.id)).toEqual(kept);
    expect(await scansPerDay(neighbour.id)).toEqual({ '2026-09-10': 2, '2026-09-30': 1, '2026-10-19': 1, '2026-10-20': 1 });
    const after = await rollupsOf(code.id);
    expect(after.days).toEqual(Object.fromEntries(Object.entries(before.rollups.days).filter(([day]) => day >= '2026-09-10')));
    expect(after.valueDays).toEqual(before.rollups.valueDays.filter((day) => day >= '2026-09-10'));
    expect(await accountDays(account)).toEqual(Object.fromEntries(Object.entries(before.account).filter(([day]) => day >= '2026-09-10')));
    expect((await accountValueDays(account)).every((day) => day >= '2026-09-10')).toBe(true);
    expect(Object.keys((await rollupsOf(neighbour.id)).days)).toEqual(['2026-09-10', '2026-09-30', '2026-10-19', '2026-10-20']);

    // The window moves once a day: later steps of the same day leave it be.
    expect((await maintenance.step()).deploymentCutoff).toBeNull();
    now = new Date('2026-10-21T00:30:00Z');
    const nextDay = await maintenance.step();
    expect(nextDay.deploymentCutoff).toEqual(new Date('2026-09-11T00:00:00Z'));
    expect(nextDay.edgeScansDeleted).toBe(4);
    expect(await scansPerDay(code.id)).toEqual(Object.fromEntries(Object.entries(kept).filter(([day]) => day >= '2026-09-11')));
  });

  it('per-code retention deletes that code’s older scans and rollups only', async () => {
    const code = await rows.dynamicCode(account, { scan_retention_days: 10 });
    const sibling = await rows.dynamicCode(account);
    const stranger = await rows.dynamicCode(await rows.account(), { scan_retention_days: 400 });
    const times = ['2026-11-10T10:00:00Z', '2026-11-16T23:59:59.999Z', '2026-11-17T00:00:00Z', '2026-11-20T15:00:00Z', '2026-11-27T09:00:00Z'];
    for (const id of [code.id, sibling.id, stranger.id]) await insertScans(id, times);
    await buildRollups([code.id, sibling.id, stranger.id]);
    const siblingBefore = { scans: await scansPerDay(sibling.id), rollups: await rollupsOf(sibling.id) };
    const accountBefore = await accountDays(account);

    now = new Date('2026-11-27T12:00:00Z');
    const report = await retention().step();
    expect(report.failed).toEqual([]);
    expect(report.codeScansDeleted).toBe(2);
    expect(await scansPerDay(code.id)).toEqual({ '2026-11-17': 1, '2026-11-20': 1, '2026-11-27': 1 });
    expect((await rollupsOf(code.id)).days).toEqual({ '2026-11-17': 1, '2026-11-20': 1, '2026-11-27': 1 });
    expect((await rollupsOf(code.id)).valueDays).toEqual(['2026-11-17', '2026-11-20', '2026-11-27']);
    // The sibling (same account, same days) and the stranger (a longer retention) keep everything.
    expect(await scansPerDay(sibling.id)).toEqual(siblingBefore.scans);
    expect(await rollupsOf(sibling.id)).toEqual(siblingBefore.rollups);
    expect(Object.values(await scansPerDay(stranger.id)).reduce((a, b) => a + b, 0)).toBe(5);
    // The account's days before the cutoff lost the code's share only.
    expect(await accountDays(account)).toEqual({
      ...accountBefore,
      '2026-11-10': accountBefore['2026-11-10'] - 1,
      '2026-11-16': accountBefore['2026-11-16'] - 1,
    });
  });

  it('deletes in bounded rounds, each its own transaction', async () => {
    const code = await rows.dynamicCode(account);
    const burst = await rows.dynamicCode(account);
    const other = await rows.dynamicCode(account);
    await insertScans(
      code.id,
      Array.from({ length: 10 }, (_, i) => `2026-11-0${1 + (i % 5)}T0${i}:00:00Z`),
    );
    await insertScans(
      burst.id,
      Array.from({ length: 7 }, (_, i) => `2026-11-02T00:0${i}:00Z`),
    );
    await insertScans(other.id, ['2026-11-03T00:00:00Z', '2026-11-04T00:00:00Z']);
    const transactions = jest.spyOn(db.database, 'workerTransaction');
    const rounds = jest.spyOn(repository, 'deleteScansBetween');
    try {
      expect(await repository.deleteCodeScansBefore(code.id, new Date('2026-11-04T00:00:00Z'), 2)).toBe(6);
      expect(transactions).toHaveBeenCalledTimes(4); // 2 + 2 + 2, then a round finding none
      expect(await scansPerDay(code.id)).toEqual({ '2026-11-04': 2, '2026-11-05': 2 });
      expect(await scansPerDay(burst.id)).toEqual({ '2026-11-02': 7 });

      // The deployment's edge: seven scans in one hour go in rounds of at most three.
      const november = { name: 'scan_events_p202611', month: new Date('2026-11-01T00:00:00Z') };
      expect(await repository.deleteScansBefore(november, new Date('2026-11-03T00:00:00Z'), 3)).toBe(7);
      const deletedPerRound = await Promise.all(rounds.mock.results.map((result) => result.value as Promise<number>));
      expect(deletedPerRound.filter((n) => n > 0)).toEqual([3, 3, 1]);
      expect(await scansPerDay(burst.id)).toEqual({});
      expect(await scansPerDay(other.id)).toEqual({ '2026-11-03': 1, '2026-11-04': 1 });
      expect(await scansPerDay(code.id)).toEqual({ '2026-11-04': 2, '2026-11-05': 2 });
    } finally {
      transactions.mockRestore();
      rounds.mockRestore();
    }
  });

  itWhen(HAS_POSTGRES)('gives up dropping a month when scan_events is held by a long transaction, rather than queue behind it', async () => {
    await repository.ensureMonth(new Date('2025-01-15T00:00:00Z'));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.database.scans.transaction(async (tx) => {
      await tx.query('SELECT count(*) FROM scan_events WHERE scanned_at > now()');
      locked();
      await held;
    });
    await holding;
    try {
      const started = Date.now();
      await expect(repository.dropPartition({ name: 'scan_events_p202501', month: new Date('2025-01-01T00:00:00Z') })).rejects.toThrow(/lock/i);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      release();
      await holder;
    }
    expect(await partitions()).toContain('scan_events_p202501');
    await repository.dropPartition({ name: 'scan_events_p202501', month: new Date('2025-01-01T00:00:00Z') });
    expect(await partitions()).not.toContain('scan_events_p202501');
  });
});
