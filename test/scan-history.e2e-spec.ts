import { auth, createQr, expectErrorBody, expectFieldErrors, expectStatus, GENEROUS_RATE_LIMIT, NO_SUCH_ID } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CSV_HEADER = 'time,device,os,browser,referrer,country,city,rule,arm,bot,rule_name,arm_name';

interface Seeded {
  at: number;
  visitor: string;
  bot?: boolean;
  referrer?: string | null;
  country?: string | null;
  city?: string | null;
  rule?: number | null;
  arm?: number | null;
  device?: string;
}

const startOfUtcDay = (ms: number) => Math.floor(ms / DAY) * DAY;

describe("a code's scan history: CSV export and erasure (e2e)", () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  let otherKey: string;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key, accountId } = await t.newAccount());
    ({ key: otherKey } = await t.newAccount());
  });
  afterAll(() => t.close());

  const query = <R>(text: string, ...values: unknown[]) => t.prisma.$queryRawUnsafe<R[]>(text, ...values);

  /** Stored scans, as the scan store writes them, user agents included (the CSV must leave them out). */
  async function seed(codeId: string, scans: Seeded[]): Promise<void> {
    for (const scan of scans) {
      await t.prisma.$executeRawUnsafe(
        `INSERT INTO scan_events (event_id, qr_code_id, scanned_at, user_agent, referrer, device, os, browser, visitor_hash, is_bot,
           country, city, rule_index, arm_index)
         VALUES (gen_random_uuid(), $1::uuid, $2::timestamptz, 'Secret-Agent/1.0', $3, $4, 'iOS', 'Mobile Safari', $5, $6, $7, $8, $9, $10)`,
        codeId,
        new Date(scan.at).toISOString(),
        scan.referrer ?? null,
        scan.bot ? 'bot' : (scan.device ?? 'mobile'),
        scan.visitor.padEnd(32, '0'),
        scan.bot ?? false,
        scan.country ?? null,
        scan.city ?? null,
        scan.rule ?? null,
        scan.arm ?? null,
      );
    }
  }

  /** The rollups and today's and yesterday's visitor sets from the raw rows, as the migration builds them. */
  async function buildRollups(codeIds: string[]): Promise<void> {
    await t.prisma.$executeRawUnsafe(`SELECT scan_rollups_remove($1::uuid[], '-infinity'::date, 'infinity'::date)`, codeIds);
    await t.prisma.$executeRawUnsafe(`SELECT scan_rollups_build($1::uuid[], '-infinity'::date, 'infinity'::date)`, codeIds);
    await t.prisma.$executeRawUnsafe(`DELETE FROM scan_day_visitors WHERE qr_code_id = ANY($1::uuid[])`, codeIds);
    await t.prisma.$executeRawUnsafe(
      `INSERT INTO scan_day_visitors (qr_code_id, day, visitor_hash)
       SELECT DISTINCT qr_code_id, (scanned_at AT TIME ZONE 'UTC')::date, visitor_hash FROM scan_events
       WHERE qr_code_id = ANY($1::uuid[]) AND NOT is_bot AND scanned_at >= ((now() AT TIME ZONE 'UTC')::date - 1)::timestamp AT TIME ZONE 'UTC'`,
      codeIds,
    );
  }

  /** Every rollup row of the codes and of the account, as text, in a fixed order. */
  async function rollupRows(codeIds: string[]): Promise<Record<string, string[]>> {
    const rows = async (sql: string, value: unknown) => (await query<{ r: string }>(sql, value)).map((row) => row.r);
    return {
      days: await rows(`SELECT c::text AS r FROM scan_code_days c WHERE qr_code_id = ANY($1::uuid[]) ORDER BY qr_code_id, day`, codeIds),
      values: await rows(
        `SELECT v::text AS r FROM scan_code_day_values v WHERE qr_code_id = ANY($1::uuid[]) ORDER BY qr_code_id, day, dimension, value, detail`,
        codeIds,
      ),
      accountDays: await rows(
        `SELECT a::text AS r FROM scan_account_days a WHERE account_id = $1::uuid ORDER BY day, folder_key, code_type`,
        accountId,
      ),
      accountValues: await rows(
        `SELECT a::text AS r FROM scan_account_day_values a WHERE account_id = $1::uuid
         ORDER BY day, dimension, value, detail`,
        accountId,
      ),
      visitors: await rows(
        `SELECT v::text AS r FROM scan_day_visitors v WHERE qr_code_id = ANY($1::uuid[]) ORDER BY qr_code_id, day, visitor_hash`,
        codeIds,
      ),
    };
  }

  const csv = (id: string, search = '', apiKey = key) =>
    t.request({ method: 'GET', url: `/api/v1/qrcodes/${id}/scans.csv${search}`, headers: auth(apiKey) });
  const erase = (id: string, search: string, apiKey = key) =>
    t.request({ method: 'DELETE', url: `/api/v1/qrcodes/${id}/scans${search}`, headers: auth(apiKey) });
  const rawCount = async (codeId: string, where = 'true') =>
    Number((await query<{ n: bigint }>(`SELECT count(*) AS n FROM scan_events WHERE qr_code_id = $1::uuid AND ${where}`, codeId))[0].n);

  describe('GET /api/v1/qrcodes/:id/scans.csv', () => {
    it('streams the stored scans of the window in time order, without visitor hash or user agent, formulas defused', async () => {
      const code = await createQr(t, key, { is_dynamic: true });
      const base = Date.parse('2026-10-05T10:00:00.000Z');
      await seed(code.id, [
        { at: base + 2, visitor: 'b', referrer: '=HYPERLINK("https://evil.example","x")', country: 'DE', city: 'Berlin', rule: 0, arm: 1 },
        { at: base, visitor: 'a', referrer: 'https://news.example/a,b', country: 'FR' },
        { at: base + 1, visitor: 'c', bot: true },
        { at: base - 1, visitor: 'd' },
        { at: base + DAY, visitor: 'e' },
      ]);
      const res = await csv(code.id, `?from=${new Date(base).toISOString()}&to=${new Date(base + DAY).toISOString()}`);
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="scans-${code.id}.csv"`);
      expect(res.body.split('\r\n')).toEqual([
        CSV_HEADER,
        '2026-10-05T10:00:00.000Z,mobile,iOS,Mobile Safari,"https://news.example/a,b",FR,,,,false,,',
        '2026-10-05T10:00:00.001Z,bot,iOS,Mobile Safari,,,,,,true,,',
        `2026-10-05T10:00:00.002Z,mobile,iOS,Mobile Safari,"'=HYPERLINK(""https://evil.example"",""x"")",DE,Berlin,0,1,false,,`,
        '',
      ]);
      expect(res.body).not.toContain('Secret-Agent');
      expect(res.body).not.toContain('a'.padEnd(32, '0'));
      // Without a window: the whole history up to now.
      expect((await csv(code.id)).body.split('\r\n')).toHaveLength(1 + 5 + 1);
    });

    it('answers 404 for a code of another account or none, 400 naming from or to, and a header alone when there is nothing', async () => {
      const code = await createQr(t, key, { is_dynamic: true });
      await seed(code.id, [{ at: Date.parse('2026-10-05T10:00:00Z'), visitor: 'x' }]);
      expectErrorBody(await csv(code.id, '', otherKey), 404);
      expectErrorBody(await csv(NO_SUCH_ID), 404);
      expectFieldErrors(await csv(code.id, '?from=yesterday'), 'from');
      expectFieldErrors(await csv(code.id, '?to=2026-02-30T00:00:00Z'), 'to');
      expectFieldErrors(await csv(code.id, '?from=2026-10-06T00:00:00Z&to=2026-10-05T00:00:00Z'), 'from');
      expectFieldErrors(await csv(code.id, '?from=2026-10-06T00:00:00Z&from=2026-10-07T00:00:00Z'), 'from');
      const empty = await csv(code.id, '?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z');
      expectStatus(empty, 200);
      expect(empty.body).toBe(`${CSV_HEADER}\r\n`);
    });

    it('streams 50,000 scans over many months page by page: every row once, in key order', async () => {
      const code = await createQr(t, key, { is_dynamic: true });
      const since = Date.parse('2025-01-01T00:00:00Z');
      // Rows 10 s apart over ~6 months (partitions), every 7th in the same millisecond as the row before (ties broken by event id).
      await t.prisma.$executeRawUnsafe(
        `INSERT INTO scan_events (event_id, qr_code_id, scanned_at, device, os, browser, visitor_hash, is_bot, country)
         SELECT gen_random_uuid(), $1::uuid, $2::timestamptz + ((i - (i % 7 = 0)::int) * interval '10 seconds'), 'mobile', 'iOS', 'Mobile Safari',
           lpad(i::text, 32, '0'), i % 13 = 0, 'NL'
         FROM generate_series(1, 50000) AS i`,
        code.id,
        new Date(since).toISOString(),
      );
      const res = await csv(code.id);
      expectStatus(res, 200);
      const lines = res.body.split('\r\n');
      expect(lines[0]).toBe(CSV_HEADER);
      expect(lines.pop()).toBe('');
      const rows = lines.slice(1);
      expect(rows).toHaveLength(50_000);
      const times = rows.map((line) => line.split(',')[0]);
      expect([...times].sort()).toEqual(times);
      expect(times[0]).toBe(new Date(since + 10_000).toISOString());
      expect(rows.filter((line) => line.endsWith(',true,,'))).toHaveLength(Math.floor(50_000 / 13));
      expect(new Set(rows.map((line) => line.split(',').slice(1).join(',')))).toEqual(
        new Set(['mobile,iOS,Mobile Safari,,NL,,,,false,,', 'mobile,iOS,Mobile Safari,,NL,,,,true,,']),
      );
      // The same rows as the database holds, by time.
      const stored = await query<{ t: string; n: bigint }>(
        `SELECT to_char(scanned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS t, count(*) AS n
         FROM scan_events WHERE qr_code_id = $1::uuid GROUP BY 1`,
        code.id,
      );
      const exported = new Map<string, number>();
      for (const time of times) exported.set(time, (exported.get(time) ?? 0) + 1);
      expect(exported).toEqual(new Map(stored.map((row) => [row.t, Number(row.n)])));
    }, 120_000);
  });

  describe('DELETE /api/v1/qrcodes/:id/scans', () => {
    it('answers 400 naming before when it is missing or not a date-time, 404 for a code of another account or none', async () => {
      const code = await createQr(t, key, { is_dynamic: true });
      await seed(code.id, [{ at: Date.now() - DAY, visitor: 'x' }]);
      expectFieldErrors(await erase(code.id, ''), 'before');
      expectFieldErrors(await erase(code.id, '?before=soon'), 'before');
      expectFieldErrors(await erase(code.id, '?before=2026-13-01T00:00:00Z'), 'before');
      expectErrorBody(await erase(code.id, `?before=${new Date().toISOString()}`, otherKey), 404);
      expectErrorBody(await erase(NO_SUCH_ID, `?before=${new Date().toISOString()}`), 404);
      expect(await rawCount(code.id)).toBe(1);
    });

    it.each([
      ['yesterday at noon (a cut day whose visitors are kept)', (today: number) => today - DAY + 12 * HOUR],
      ['a midnight three days ago (no day cut)', (today: number) => today - 3 * DAY],
      ['ten days ago at 06:30 (a cut day without visitor sets)', (today: number) => today - 10 * DAY + 6.5 * HOUR],
    ])(
      'erases the scans before %s: the rollups equal a rebuild, /scans counts what is left, only that code is touched',
      async (_name, cutOf) => {
        const code = await createQr(t, key, { is_dynamic: true });
        const bystander = await createQr(t, key, { is_dynamic: true });
        const today = startOfUtcDay(Date.now());
        const scans: Seeded[] = [];
        for (let day = 12; day >= 0; day--) {
          for (let i = 0; i < 6; i++) {
            const at = Math.min(today - day * DAY + i * 4 * HOUR + 1234, Date.now() - 1000);
            scans.push({
              at,
              visitor: `v${i % 4}`,
              bot: i === 5,
              referrer: i % 2 ? 'https://news.example/x' : null,
              country: i % 3 ? 'DE' : null,
              city: i % 3 === 1 ? 'Berlin' : null,
              rule: i === 2 ? 0 : null,
              arm: i === 2 ? 1 : null,
            });
          }
        }
        await seed(code.id, scans);
        await seed(bystander.id, scans);
        await buildRollups([code.id, bystander.id]);
        await t.prisma.$executeRawUnsafe(`UPDATE qr_codes SET scans = 4242 WHERE id = $1::uuid`, code.id);
        const bystanderBefore = await rollupRows([bystander.id]);
        const cut = cutOf(today);
        const expected = scans.filter((scan) => scan.at < cut).length;

        const res = await erase(code.id, `?before=${encodeURIComponent(new Date(cut).toISOString().replace('Z', '+00:00'))}`);
        expectStatus(res, 200);
        expect(res.json()).toEqual({
          qr_code_id: code.id,
          before: new Date(cut).toISOString(),
          deleted_events: expected,
          request_id: res.headers['x-request-id'],
        });
        expect(expected).toBeGreaterThan(0);
        expect(await rawCount(code.id, `scanned_at < '${new Date(cut).toISOString()}'`)).toBe(0);
        expect(await rawCount(code.id)).toBe(scans.length - expected);
        expect(await rawCount(bystander.id)).toBe(scans.length);

        // The rollups left are what building them from scratch gives (the account's rows included).
        const afterErasure = await rollupRows([code.id, bystander.id]);
        await buildRollups([code.id, bystander.id]);
        expect(afterErasure).toEqual(await rollupRows([code.id, bystander.id]));
        expect(afterErasure.days.length).toBeGreaterThan(0);
        const bystanderNow = await rollupRows([bystander.id]);
        expect({ days: bystanderNow.days, values: bystanderNow.values, visitors: bystanderNow.visitors }).toEqual({
          days: bystanderBefore.days,
          values: bystanderBefore.values,
          visitors: bystanderBefore.visitors,
        });

        // /scans over what is left equals the raw rows; the counter is kept.
        const left = scans.filter((scan) => scan.at >= cut);
        const window = `from=${new Date(today - 13 * DAY).toISOString()}&to=${new Date(Date.now() + HOUR).toISOString()}`;
        const analytics = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}/scans?${window}`, headers: auth(key) });
        expectStatus(analytics, 200);
        expect(analytics.json().totals.scans).toBe(left.filter((scan) => !scan.bot).length);
        expect(analytics.json().totals.bot_scans).toBe(left.filter((scan) => scan.bot).length);
        const got = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}`, headers: auth(key) });
        expect(got.json().scans).toBe(4242);

        // Audited, with the cut and the count.
        const audit = await t.request({
          method: 'GET',
          url: `/api/v1/audit-log?action=qrcode.erase_scans&resource_id=${code.id}`,
          headers: auth(key),
        });
        expectStatus(audit, 200);
        expect(audit.json().data).toHaveLength(1);
        expect(JSON.stringify(audit.json().data[0])).toContain(String(expected));

        // Erasing again finds nothing.
        expect((await erase(code.id, `?before=${new Date(cut).toISOString()}`)).json().deleted_events).toBe(0);
      },
      60_000,
    );
  });
});
