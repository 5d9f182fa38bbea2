import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import {
  auth,
  createFolder,
  createQr,
  expectFieldErrors,
  expectStatus,
  GENEROUS_RATE_LIMIT,
  ISO_UTC_MS,
  rebuildScanRollups,
} from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const DAY = 86_400_000;
const COLUMNS = ['id', 'name', 'type', 'status', 'dynamic_url', 'tags', 'folder', 'scans', 'unique_visitors', 'created_at', 'updated_at'];

/** GET /api/v1/qrcodes.csv?view=report (docs/exports-and-imports.md#the-report-csv). */
describe('the report CSV (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
  });
  afterAll(() => t?.close());

  const report = (key: string, query = '') => t.request({ method: 'GET', url: `/api/v1/qrcodes.csv?view=report${query}`, headers: auth(key) });
  const rowsOf = (body: string) => parse<Record<string, string>>(body, { columns: true });

  /** Human scans of `visitors` (one each) `daysAgo` days before now, stored and rolled up as the scan buffer would. */
  const scansAt = async (qrCodeId: string, daysAgo: number, visitors: string[], bot = false) => {
    const at = new Date(Date.now() - daysAgo * DAY);
    await t.prisma.scanEvent.createMany({
      data: visitors.map((visitor) => ({
        eventId: randomUUID(),
        qrCodeId,
        scannedAt: at,
        device: bot ? 'bot' : 'mobile',
        os: 'iOS',
        browser: 'Mobile Safari',
        visitorHash: visitor.padEnd(32, '-'),
        isBot: bot,
      })),
    });
  };

  it('one line per code: status, link, tags, folder, scans, unique visitors of the last 30 days; formula-safe; from/to move the window', async () => {
    const { key, accountId } = await t.newAccount();
    const folder = await createFolder(t, key, 'Campaigns, 2026');
    const link = await createQr(t, key, { name: 'Spring poster', is_dynamic: true, folder_id: folder.id });
    const trap = await createQr(t, key, { name: '=HYPERLINK("https://evil.example")', type: 'text', content: { text: 'hi' } });
    for (const name of ['spring', 'posters'])
      expectStatus(await t.request({ method: 'POST', url: '/api/v1/tags', headers: auth(key), payload: { name } }), 201);
    const tags = await t.prisma.tag.findMany({ where: { accountId } });
    const tagId = (name: string) => tags.find((tag) => tag.name === name)!.id;
    // Codes carry tags by id (docs/tags-and-bulk-edits.md); written here directly, in the order the report keeps.
    await t.prisma.qrCode.update({ where: { id: link.id }, data: { tagIds: [tagId('spring'), tagId('posters')], scans: 7 } });
    await scansAt(link.id, 2, ['a', 'a', 'b']);
    await scansAt(link.id, 3, ['a']);
    await scansAt(link.id, 2, ['bot'], true);
    await scansAt(link.id, 40, ['old']);
    await scansAt(link.id, 0.01, ['now']);
    await rebuildScanRollups(t, [link.id]);

    const res = await report(key, '&sort=name-asc');
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="qr-codes-report.csv"');
    expect(res.body.split('\r\n')[0]).toBe(COLUMNS.join(','));
    const rows = rowsOf(res.body);
    expect(rows.map((row) => row.name)).toEqual(['\'=HYPERLINK("https://evil.example")', 'Spring poster']);
    const [trapRow, linkRow] = rows;
    // Unique visitors: each UTC day's distinct visitors, summed (a on day -3, a and b on day -2, "now" today); bots and day -40 out.
    expect(linkRow).toEqual({
      id: link.id,
      name: 'Spring poster',
      type: 'url',
      status: 'active',
      dynamic_url: link.dynamic_url,
      tags: 'spring|posters',
      folder: 'Campaigns, 2026',
      scans: '7',
      unique_visitors: '4',
      created_at: expect.stringMatching(ISO_UTC_MS),
      updated_at: expect.stringMatching(ISO_UTC_MS),
    });
    expect(linkRow.created_at).toBe(link.created_at);
    expect(trapRow).toMatchObject({ id: trap.id, type: 'text', dynamic_url: '', tags: '', folder: '', scans: '0', unique_visitors: '0' });

    const wide = rowsOf((await report(key, `&from=${new Date(Date.now() - 50 * DAY).toISOString()}&type=url`)).body);
    expect(wide.map((row) => [row.name, row.unique_visitors])).toEqual([['Spring poster', '5']]);
    const narrow = rowsOf(
      (await report(key, `&from=${new Date(Date.now() - 2.5 * DAY).toISOString()}&to=${new Date(Date.now() - DAY).toISOString()}&type=url`)).body,
    );
    expect(narrow[0].unique_visitors).toBe('2');
  });

  it('pages through more codes than one batch holds, with the list filters, and other accounts stay out', async () => {
    const { key, accountId } = await t.newAccount();
    const { key: otherKey } = await t.newAccount();
    await createQr(t, otherKey, { name: 'not mine' });
    await t.prisma.qrCode.createMany({
      data: Array.from({ length: 1050 }, (_, i) => ({
        accountId,
        name: `code ${String(i).padStart(4, '0')}`,
        type: 'text',
        content: { text: `t${i}` },
        contentString: `t${i}`,
        status: i % 2 === 0 ? 'active' : 'paused',
      })),
    });
    const all = rowsOf((await report(key, '&sort=name-asc')).body);
    expect(all).toHaveLength(1050);
    expect(all.map((row) => row.name)).toEqual(Array.from({ length: 1050 }, (_, i) => `code ${String(i).padStart(4, '0')}`));
    expect(new Set(all.map((row) => row.id)).size).toBe(1050);
    const paused = rowsOf((await report(key, '&status=paused')).body);
    expect(paused).toHaveLength(525);
    expect(paused.every((row) => row.status === 'paused')).toBe(true);
  });

  it('a bad view or window is a 400 naming the field; from/to belong to the report; the import format stays the default', async () => {
    const { key } = await t.newAccount();
    await createQr(t, key, { name: 'x' });
    const get = (query: string) => t.request({ method: 'GET', url: `/api/v1/qrcodes.csv?${query}`, headers: auth(key) });
    expectFieldErrors(await get('view=summary'), 'view');
    expectFieldErrors(await get('view=report&from=yesterday'), 'from');
    expectFieldErrors(await get('view=report&from=2026-11-10T00:00:00Z&to=2026-11-01T00:00:00Z'), 'from');
    expectFieldErrors(await get('from=2026-11-01T00:00:00Z'), 'from');
    const plain = await get('');
    expectStatus(plain, 200);
    expect(plain.body.split('\r\n')[0]).toMatch(/^type,name,is_dynamic,/);
    expect((await get('view=import')).body).toBe(plain.body);
  });
});
